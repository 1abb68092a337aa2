import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createEmbeddedPostgresClient } from '@token-actions/adapters';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  client,
  freshDatabase,
  killHard,
  type ServerProcess,
  startServerProcess,
  stopGracefully,
} from './process.js';

const N = 200;
/** Donations in flight at once. */
const IN_FLIGHT = 100;
const LAMPORTS = (i: number) => BigInt(i + 1) * 1_000n;
const sol = (lamports: bigint) => `0.${lamports.toString().padStart(9, '0')}`;

/** Statements the test runs itself against the server's database. */
type Query = <Row>(text: string, params?: unknown[]) => Promise<Row[]>;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The embedded server's postmaster pid, from the file it keeps in its cluster. */
async function postmasterPid(dataDir: string): Promise<number> {
  const text = await readFile(join(dataDir, 'postgres', 'cluster', 'postmaster.pid'), 'utf8');
  return Number.parseInt(text, 10);
}

async function waitForExit(pid: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new Error(`postmaster ${pid} outlived its server by ${timeoutMs} ms`);
    await sleep(50);
  }
}

/**
 * Exactly once across a crash: 200 donations with idempotency keys, 100 at a time, against a server with
 * the embedded localnet, kill -9 mid-way, restart on the same DATA_DIR, replay every request with its
 * key. Every 200 ends finalized, nothing is transferred twice, and the chain's balances equal the
 * database's records to the lamport. Run on PostgreSQL (DATABASE_URL) and on the embedded default
 * (a PostgreSQL server the server runs as its child: it must not outlive the killed server, and
 * the restart must start it again on the recovered cluster).
 */
describe.each(['postgres', 'embedded'] as const)(
  'crash safety on %s: kill -9 mid-stream and replay',
  (database) => {
    const cleanup: Array<() => Promise<void>> = [];
    afterAll(async () => {
      for (const fn of cleanup.reverse()) await fn().catch(() => {});
    });

    it('executes every request exactly once across the crash', async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'ta-crash-'));
      cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
      let query: Query;
      let databaseEnv: Record<string, string> = {};
      if (database === 'postgres') {
        const db = await freshDatabase('ta_crash');
        cleanup.push(db.drop);
        databaseEnv = { DATABASE_URL: db.url };
        query = async (text, params) => {
          const c = new pg.Client({ connectionString: db.url });
          await c.connect();
          try {
            return (await c.query(text, params)).rows;
          } finally {
            await c.end();
          }
        };
      } else {
        // Only while the server is down: the embedded database belongs to one process at a time.
        query = async (text, params) => {
          const sql = await createEmbeddedPostgresClient({ dataDir: join(dataDir, 'postgres') });
          try {
            return (await sql.query(text, params)).rows as never[];
          } finally {
            await sql.close();
          }
        };
      }
      const env = {
        ...databaseEnv,
        DATA_DIR: dataDir,
        LOCALNET_RPC_PORT: '0',
        SLOT_INTERVAL_MS: '50',
        FINALITY_DEPTH_SLOTS: '4',
        WORKER_INTERVAL_MS: '200',
        // The abandonment window stays at its 30 s default: keys are resumed through the dead
        // process's lapsed instance lease (INSTANCE_LEASE_MS, 3 s), which is what this shows.
      };

      let server: ServerProcess = await startServerProcess(env);
      cleanup.push(() => killHard(server));
      let call = client(server.baseUrl, server.apiKey);
      const sender = (await call('POST', '/v1/api/accounts', {})).json.publicKey as string;
      expect(
        (await call('POST', `/v1/api/accounts/${sender}/airdrop`, { currency: 'SOL', amount: '100' })).status,
      ).toBe(200);

      const keys = Array.from({ length: N }, (_, i) => `crash-${i}-${Date.now()}`);
      const body = (i: number) => ({ account: sender, amount: sol(LAMPORTS(i)), priority: 'Low' });
      const first = new Map<number, string>();
      let answered = 0;
      let killing: Promise<void> | undefined;
      // A stream: IN_FLIGHT at a time, each answer sending the next. The kill lands at the 60th
      // answer, so at most 60 + IN_FLIGHT can have been acknowledged whatever the server's pace.
      // With all 200 sent at once, one group commit could answer them all before the kill landed.
      let sent = 0;
      const lane = async () => {
        while (sent < N) {
          const i = sent++;
          await call('POST', '/v1/api/donate/sol', body(i), { 'idempotency-key': keys[i]! })
            .then((r) => {
              if (r.status === 200) first.set(i, r.json.transactionId);
              answered++;
              if (answered === 60 && !killing) killing = killHard(server);
            })
            .catch(() => undefined);
        }
      };
      const stream = Promise.all(Array.from({ length: IN_FLIGHT }, lane));
      const postmaster = database === 'embedded' ? await postmasterPid(dataDir) : undefined;
      await stream;
      await killing;
      expect(first.size).toBeGreaterThan(0);
      expect(first.size).toBeLessThan(N);
      // The embedded server does not outlive the process that owned it.
      if (postmaster !== undefined) await waitForExit(postmaster);

      // What the dead process left claimed but unanswered: each must be resumed after the restart.
      const leftInProgress = Number(
        (
          await query<{ n: string }>(
            "SELECT count(*) AS n FROM idempotency_keys WHERE status = 'in_progress'",
          )
        )[0]!.n,
      );

      server = await startServerProcess(env);
      const restartedAt = Date.now();
      call = client(server.baseUrl, server.apiKey);

      const ids = new Map<number, string>();
      let inProgressRetries = 0;
      let lastInProgressAt = restartedAt;
      await Promise.all(
        keys.map(async (key, i) => {
          for (let attempt = 0; attempt < 100; attempt++) {
            const r = await call('POST', '/v1/api/donate/sol', body(i), { 'idempotency-key': key });
            if (r.status === 200) {
              ids.set(i, r.json.transactionId);
              return;
            }
            expect(r.status, JSON.stringify(r.json)).toBe(409); // in progress until the dead process's lease lapses
            inProgressRetries++;
            lastInProgressAt = Math.max(lastInProgressAt, Date.now());
            await new Promise((res) => setTimeout(res, 250));
          }
          throw new Error(`request ${i} never completed`);
        }),
      );
      expect(ids.size).toBe(N);
      console.log(
        `crash test: ${first.size}/${N} acknowledged before kill -9; ${inProgressRetries} replays waited on an abandoned key; ` +
          `${leftInProgress} keys were left in progress; the last was resumed ${lastInProgressAt - restartedAt} ms after the restart`,
      );
      // Every key left in progress by the dead process is resumed within 5 s.
      expect(lastInProgressAt - restartedAt).toBeLessThan(5_000);
      for (const [i, id] of first) expect(ids.get(i)).toBe(id);
      expect(new Set(ids.values()).size).toBe(N);

      const deadline = Date.now() + 60_000;
      for (const id of ids.values()) {
        for (;;) {
          const t = await call('GET', `/v1/api/transaction/track/${id}`);
          if (t.json.status === 'finalized') break;
          expect(['pending', 'processed', 'confirmed']).toContain(t.json.status);
          if (Date.now() >= deadline) {
            throw new Error(
              `${id} is still ${t.json.status} 60 s after the replay: ${JSON.stringify(t.json)}\n` +
                `server output:\n${server.output().slice(-4000)}`,
            );
          }
          await new Promise((res) => setTimeout(res, 100));
        }
      }

      const expectedSpent = Array.from({ length: N }, (_, i) => LAMPORTS(i)).reduce((a, b) => a + b, 0n);
      const balances = (await call('GET', `/v1/api/accounts/${sender}`)).json.balances as Array<{
        currency: string;
        baseUnits: string;
      }>;
      const onChain = BigInt(balances.find((b) => b.currency === 'SOL')!.baseUnits);
      expect(100_000_000_000n - onChain).toBe(expectedSpent);

      const restartedPostmaster = database === 'embedded' ? await postmasterPid(dataDir) : undefined;
      await stopGracefully(server);
      // A graceful stop stops the embedded server with it.
      if (restartedPostmaster !== undefined) expect(alive(restartedPostmaster)).toBe(false);
      const rows = await query<{ n: string; total: string; finalized: string }>(
        `SELECT count(*) AS n, sum(amount)::text AS total, count(*) FILTER (WHERE status = 'finalized') AS finalized
         FROM transactions WHERE kind = 'donation' AND from_account = $1`,
        [sender],
      );
      expect(Number(rows[0]!.n)).toBe(N);
      expect(Number(rows[0]!.finalized)).toBe(N);
      expect(BigInt(rows[0]!.total)).toBe(expectedSpent);
    }, 240_000);
  },
);
