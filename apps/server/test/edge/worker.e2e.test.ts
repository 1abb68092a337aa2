import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPgStore, createPostgresClient, migrate } from '@token-actions/adapters';
import { createApiKey } from '@token-actions/core';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkthrough } from '../../../../scripts/walkthrough.js';
import { freshDatabase, startTestLocalnet, stopChild } from '../scale/process.js';

const WORKER = new URL('../../dist/edge/worker.js', import.meta.url).pathname;
const BUILD = new URL('../../scripts/build-edge.mjs', import.meta.url).pathname;

/**
 * The edge bundle in workerd (Miniflare 3, the workerd binary from npm)
 * against the localnet process and PostgreSQL. Only the worker serves and only its cron trigger
 * runs the loops: no Node server is started.
 */
describe('edge worker in workerd', () => {
  const cleanup: Array<() => Promise<void>> = [];
  let mf: Miniflare;
  let origin: string;
  let apiKey: string;
  let databaseUrl: string;
  let logs = '';

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, [BUILD]);
    const root = await mkdtemp(join(tmpdir(), 'ta-edge-'));
    cleanup.push(() => rm(root, { recursive: true, force: true }));
    const masterKey = randomBytes(32).toString('hex');
    const database = await freshDatabase('edge');
    cleanup.push(() => database.drop());
    databaseUrl = database.url;

    // Migrations and the API key come from Node, as in a deployment; the worker never migrates.
    const sql = createPostgresClient({ connectionString: databaseUrl, max: 2 });
    await migrate(sql);
    // The default tenant's key, issued the way the admin API issues one.
    const issued = await createApiKey(
      { store: createPgStore(sql), clock: { now: () => new Date() } },
      { label: 'edge test', tenant: 'default' },
    );
    expect(issued.isOk()).toBe(true);
    apiKey = issued._unsafeUnwrap().apiKey;
    await sql.close();

    const localnet = await startTestLocalnet(root, masterKey);
    cleanup.push(() => stopChild(localnet.child));

    mf = new Miniflare({
      modules: true,
      scriptPath: WORKER,
      compatibilityDate: '2025-07-18',
      compatibilityFlags: ['nodejs_compat'],
      bindings: {
        DATABASE_URL: databaseUrl,
        SOLANA_RPC_URL: localnet.rpcUrl,
        KEYSTORE_MASTER_KEY: masterKey,
        LOG_LEVEL: 'info',
      },
      host: '127.0.0.1',
      port: 0,
      cf: false,
      handleRuntimeStdio(stdout, stderr) {
        stdout.on('data', (d) => (logs += d));
        stderr.on('data', (d) => (logs += d));
      },
    });
    cleanup.push(() => mf.dispose());
    origin = (await mf.ready).origin;
  }, 120_000);

  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn().catch(() => {});
  });

  async function statusInDatabase(id: string): Promise<string | undefined> {
    const sql = createPostgresClient({ connectionString: databaseUrl, max: 1 });
    try {
      const { rows } = await sql.query<{ status: string }>('SELECT status FROM transactions WHERE id = $1', [
        id,
      ]);
      return rows[0]?.status;
    } finally {
      await sql.close();
    }
  }

  const scheduled = async () => {
    // Miniflare 3 never fires crons itself; its Fetcher type lacks `scheduled`, the object has it.
    const worker = (await mf.getWorker()) as unknown as {
      scheduled(event: { cron: string; scheduledTime: Date }): Promise<{ outcome: string }>;
    };
    return worker.scheduled({ cron: '* * * * *', scheduledTime: new Date() });
  };

  it('its scheduled trigger moves a minted transaction to finalized', async () => {
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const account = await fetch(`${origin}/v1/api/accounts`, { method: 'POST', headers, body: '{}' });
    expect(account.status, logs).toBe(200);
    const owner = ((await account.json()) as { publicKey: string }).publicKey;
    const funded = await fetch(`${origin}/v1/api/accounts/${owner}/airdrop`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ currency: 'SOL', amount: '1' }),
    });
    expect(funded.status, logs).toBe(200);
    // Minting signs the fresh mint key with WebCrypto inside workerd (node:crypto `sign` is not used).
    const minted = await fetch(`${origin}/v1/api/mint`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        owner,
        name: 'Edge #1',
        symbol: 'EDGE',
        uri: 'https://example.org/edge/1.json',
      }),
    });
    const body = (await minted.json()) as { transactionId: string };
    expect(minted.status, JSON.stringify(body) + logs).toBe(200);
    expect(await statusInDatabase(body.transactionId)).not.toBe('finalized');

    const deadline = Date.now() + 30_000;
    let runs = 0;
    while ((await statusInDatabase(body.transactionId)) !== 'finalized') {
      expect(Date.now(), `still ${await statusInDatabase(body.transactionId)}\n${logs}`).toBeLessThan(
        deadline,
      );
      expect(await scheduled()).toMatchObject({ outcome: 'ok' });
      runs++;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(runs).toBeGreaterThan(0);
  }, 60_000);

  it('serves the interface A walkthrough with its cron trigger running the loops', async () => {
    let pumping = true;
    const pump = (async () => {
      while (pumping) {
        await scheduled();
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    try {
      const result = await walkthrough({ baseUrl: origin, apiKey, finalizeTimeoutMs: 60_000 });
      expect(Object.values(result.statuses).every((s) => s === 'finalized')).toBe(true);
      expect(result.balances.sender).toEqual({ SOL: '8250000000', USDC: '957500000', PROJ: '820000000000' });
    } finally {
      pumping = false;
      await pump;
    }
    // The worker logged through the console logger, and no secret reached it.
    expect(logs).not.toContain(apiKey);
  }, 180_000);
});
