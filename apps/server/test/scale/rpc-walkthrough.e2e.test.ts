import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { walkthrough } from '../../../../scripts/walkthrough.js';
import { startServerProcess, startTestLocalnet, stopChild } from './process.js';

/** The walkthrough with the server on the `rpc` adapter against `pnpm localnet`. */
describe('walkthrough over the rpc chain adapter', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn().catch(() => {});
  });

  it('passes with every balance exact', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ta-rpcwalk-'));
    cleanup.push(() => rm(root, { recursive: true, force: true }));
    const masterKey = randomBytes(32).toString('hex');
    const localnet = await startTestLocalnet(root, masterKey);
    cleanup.push(() => stopChild(localnet.child));
    const server = await startServerProcess({
      DATA_DIR: join(root, 'server'),
      KEYSTORE_MASTER_KEY: masterKey,
      SOLANA_RPC_URL: localnet.rpcUrl,
      WORKER_INTERVAL_MS: '100',
    });
    cleanup.push(() => stopChild(server.child));

    const result = await walkthrough({ baseUrl: server.baseUrl, apiKey: server.apiKey });
    expect(Object.values(result.statuses).every((s) => s === 'finalized')).toBe(true);
    expect(result.balances.sender).toEqual({ SOL: '8250000000', USDC: '957500000', PROJ: '820000000000' });
    const tracked = await fetch(`${server.baseUrl}/v1/api/transaction/track/${result.transactions.mint}`, {
      headers: { authorization: `Bearer ${server.apiKey}` },
    });
    const body = (await tracked.json()) as { explorerUrl: string };
    expect(body.explorerUrl).toContain(`customUrl=${encodeURIComponent(localnet.rpcUrl)}`);
  }, 180_000);
});
