import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { request } from '../admin/support.js';
import {
  freshDatabase,
  type ServerProcess,
  startLocalnetProcess,
  startServerProcess,
  stopChild,
} from './process.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Revocation across two servers: a key revoked through one server is refused by both within
 * a second. The servers share PostgreSQL and Redis and keep verified keys in memory for a minute
 * here (API_KEY_CACHE_TTL_MS), so only the revocation notice (LISTEN/NOTIFY) can make it that fast.
 */
describe('revocation across two servers sharing PostgreSQL and Redis', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn().catch(() => {});
  });

  it('refuses a revoked key within one second on both servers, whichever revoked it', async () => {
    const db = await freshDatabase('ta_revoke');
    cleanup.push(db.drop);
    const root = await mkdtemp(join(tmpdir(), 'ta-revoke-'));
    cleanup.push(() => rm(root, { recursive: true, force: true }));
    const masterKey = randomBytes(32).toString('hex');
    const adminToken = randomBytes(32).toString('base64url');
    const localnet = await startLocalnetProcess({
      DATA_DIR: join(root, 'localnet'),
      KEYSTORE_MASTER_KEY: masterKey,
      SLOT_INTERVAL_MS: '50',
    });
    cleanup.push(() => stopChild(localnet.child));

    const shared = {
      DATABASE_URL: db.url,
      REDIS_URL,
      SOLANA_RPC_URL: localnet.rpcUrl,
      KEYSTORE_MASTER_KEY: masterKey,
      ADMIN_TOKEN: adminToken,
      API_KEY_CACHE_TTL_MS: '60000',
      RUN_WORKER: 'false',
    };
    const servers: ServerProcess[] = [];
    for (const name of ['server-a', 'server-b']) {
      const server = await startServerProcess({ ...shared, DATA_DIR: join(root, name) });
      cleanup.push(() => stopChild(server.child));
      servers.push(server);
    }
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const probe = `/v1/api/accounts/${'1'.repeat(32)}`;

    for (const [revoker, label] of [
      [a, 'revoked through a'],
      [b, 'revoked through b'],
    ] as const) {
      const issued = await request(revoker.baseUrl, 'POST', '/v1/admin/api-keys', {
        token: adminToken,
        body: { label, tenant: 'shared' },
      });
      expect(issued.status, issued.text).toBe(201);
      const key = issued.json.apiKey as string;
      // Both servers have verified (and cached) the key before it is revoked.
      for (const s of servers) {
        for (let i = 0; i < 3; i++)
          expect((await request(s.baseUrl, 'GET', probe, { token: key })).status).toBe(200);
      }

      const revoked = await request(revoker.baseUrl, 'DELETE', `/v1/admin/api-keys/${issued.json.id}`, {
        token: adminToken,
      });
      expect(revoked.status).toBe(200);
      const at = Date.now();
      const delays = await Promise.all(
        servers.map(async (s) => {
          for (;;) {
            const res = await request(s.baseUrl, 'GET', probe, { token: key });
            if (res.status === 401) return Date.now() - at;
            expect(res.status).toBe(200);
            if (Date.now() - at > 5_000) return Number.POSITIVE_INFINITY;
            await new Promise((r) => setTimeout(r, 20));
          }
        }),
      );
      for (const delay of delays) expect(delay).toBeLessThan(1_000);
      for (const s of servers)
        expect((await request(s.baseUrl, 'GET', probe, { token: key })).status).toBe(401);
      console.log(`revocation (${label}): refused after ${delays.map((d) => `${d} ms`).join(' and ')}`);
    }
  }, 180_000);
});
