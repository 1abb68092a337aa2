import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  client,
  freshDatabase,
  type ServerProcess,
  startLocalnetProcess,
  startServerProcess,
  startWorkerProcess,
  stopChild,
} from './process.js';

const N = 1_000;

/**
 * Two servers and two standalone workers on one PostgreSQL, all on the
 * `rpc` chain adapter against `pnpm localnet` (a process of its own). 1,000 transactions are
 * tracked to a terminal status by the workers alone, and every status change happens once.
 */
describe('two servers and two workers on one database, chain over JSON-RPC', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn().catch(() => {});
  });

  it('tracks 1,000 transactions to a terminal status, each status change exactly once', async () => {
    const db = await freshDatabase('ta_multi');
    cleanup.push(db.drop);
    const root = await mkdtemp(join(tmpdir(), 'ta-multi-'));
    cleanup.push(() => rm(root, { recursive: true, force: true }));
    const masterKey = randomBytes(32).toString('hex');

    const localnet = await startLocalnetProcess({
      DATA_DIR: join(root, 'localnet'),
      KEYSTORE_MASTER_KEY: masterKey,
      SLOT_INTERVAL_MS: '50',
      FINALITY_DEPTH_SLOTS: '4',
    });
    cleanup.push(() => stopChild(localnet.child));

    const shared = { DATABASE_URL: db.url, SOLANA_RPC_URL: localnet.rpcUrl, KEYSTORE_MASTER_KEY: masterKey };
    const servers: ServerProcess[] = [];
    for (const name of ['server-a', 'server-b']) {
      const server = await startServerProcess({ ...shared, DATA_DIR: join(root, name), RUN_WORKER: 'false' });
      cleanup.push(() => stopChild(server.child));
      servers.push(server);
    }
    const workers = ['worker-a', 'worker-b'].map((name) =>
      startWorkerProcess({
        ...shared,
        DATA_DIR: join(root, name),
        WORKER_ID: name,
        WORKER_INTERVAL_MS: '100',
      }),
    );
    for (const w of workers) cleanup.push(() => stopChild(w.child));

    const calls = servers.map((s) => client(s.baseUrl, s.apiKey));
    const sender = (await calls[0]!('POST', '/v1/api/accounts', {})).json.publicKey as string;
    const funded = await calls[0]!('POST', `/v1/api/accounts/${sender}/airdrop`, {
      currency: 'SOL',
      amount: '50',
    });
    expect(funded.status, JSON.stringify(funded.json)).toBe(200);

    const started = Date.now();
    const ids: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < N) {
          const i = next++;
          const r = await calls[i % 2]!('POST', '/v1/api/donate/sol', {
            account: sender,
            amount: `0.${String(i + 1).padStart(9, '0')}`,
            priority: 'Min',
          });
          expect(r.status, JSON.stringify(r.json)).toBe(200);
          ids.push(r.json.transactionId);
        }
      }),
    );
    const submittedMs = Date.now() - started;
    expect(new Set(ids).size).toBe(N);

    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    cleanup.push(() => sql.end());
    const deadline = Date.now() + 120_000;
    let settled = 0;
    while (Date.now() < deadline) {
      const r = await sql.query<{ n: string }>(
        `SELECT count(*) AS n FROM transactions WHERE kind = 'donation' AND status IN ('finalized', 'failed', 'expired')`,
      );
      settled = Number(r.rows[0]!.n);
      if (settled === N) break;
      await new Promise((res) => setTimeout(res, 250));
    }
    const trackedMs = Date.now() - started;
    expect(settled).toBe(N);

    const statuses = await sql.query<{ status: string; n: string }>(
      `SELECT status, count(*) AS n FROM transactions WHERE kind = 'donation' GROUP BY status`,
    );
    expect(statuses.rows).toEqual([{ status: 'finalized', n: String(N) }]);

    // Every transaction reached its terminal status by exactly one event, and no move repeated.
    const events = await sql.query<{
      transaction_id: string;
      moves: string;
      terminal: string;
      distinct_moves: string;
    }>(
      `SELECT e.transaction_id,
              count(*) AS moves,
              count(*) FILTER (WHERE e.to_status IN ('finalized', 'failed', 'expired')) AS terminal,
              count(DISTINCT (e.from_status, e.to_status)) AS distinct_moves
         FROM transaction_events e JOIN transactions t ON t.id = e.transaction_id
        WHERE t.kind = 'donation'
        GROUP BY e.transaction_id`,
    );
    expect(events.rows).toHaveLength(N);
    for (const row of events.rows) {
      expect(Number(row.terminal)).toBe(1);
      expect(Number(row.moves)).toBe(Number(row.distinct_moves));
      expect(Number(row.moves)).toBeLessThanOrEqual(3);
    }
    const owners = await sql.query<{ lease_owner: string; n: string }>(
      `SELECT lease_owner, count(*) AS n FROM transactions WHERE kind = 'donation' GROUP BY lease_owner ORDER BY lease_owner`,
    );
    expect(owners.rows.map((r) => r.lease_owner)).toEqual(['worker-a', 'worker-b']);

    const totalEvents = events.rows.reduce((a, r) => a + Number(r.moves), 0);
    console.log(
      `multiprocess: ${N} donations through 2 servers in ${submittedMs} ms, all finalized after ${trackedMs} ms; ` +
        `${totalEvents} status-change events (${(totalEvents / N).toFixed(2)} per transaction), ` +
        `last leases: ${owners.rows.map((r) => `${r.lease_owner}=${r.n}`).join(', ')}`,
    );
    for (const w of workers) expect(w.child.exitCode).toBeNull();
  }, 300_000);
});
