import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashSecret } from '@token-actions/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { adminOf, asKey, request } from './support.js';

const ADMIN_ROUTES: Array<[string, string]> = [
  ['POST', '/v1/admin/api-keys'],
  ['GET', '/v1/admin/api-keys'],
  ['GET', '/v1/admin/api-keys/key_x'],
  ['DELETE', '/v1/admin/api-keys/key_x'],
  ['POST', '/v1/admin/api-keys/key_x/rotate'],
  ['GET', '/v1/admin/tenants'],
  ['GET', '/v1/admin/tenants/default'],
  ['PATCH', '/v1/admin/tenants/default'],
  ['GET', '/v1/admin/unknown'],
];

/** A real server whose log lines are kept, at the most verbose level, to be searched for secrets. */
describe('admin API security', () => {
  const lines: string[] = [];
  let server: RunningServer;
  let dataDir: string;
  let h: { server: RunningServer; baseUrl: string };
  let admin: ReturnType<typeof adminOf>;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ta-admin-sec-'));
    const config = parseConfig({
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'trace',
      SLOT_INTERVAL_MS: '20',
      FINALITY_DEPTH_SLOTS: '4',
      WORKER_INTERVAL_MS: '100',
      LOCALNET_RPC_PORT: '0',
    });
    server = await startServer(
      config,
      createLogger('trace', { write: (line: string) => void lines.push(line) }),
    );
    h = { server, baseUrl: server.baseUrl };
    admin = adminOf(h);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it.each(ADMIN_ROUTES)(
    '%s %s without a token, with a wrong one, or with an API key is 401',
    async (method, path) => {
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      const attempts = [
        undefined,
        'wrong',
        `${admin.token.slice(0, -1)}${admin.token.endsWith('A') ? 'B' : 'A'}`,
        server.credentials.apiKey,
      ];
      for (const token of attempts) {
        const res = await request(h.baseUrl, method, path, {
          ...(token ? { token } : {}),
          ...(body ? { body } : {}),
        });
        expect(res.status, String(token)).toBe(401);
        expect(res.json).toEqual({ code: 'UNAUTHORIZED', message: 'missing or invalid admin token' });
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
      const basic = await request(h.baseUrl, method, path, {
        headers: { authorization: `Basic ${admin.token}` },
      });
      expect(basic.status).toBe(401);
    },
  );

  it('does not accept the operator token as an API key', async () => {
    const res = await asKey(h.baseUrl, admin.token)('POST', '/v1/api/accounts', {});
    expect(res.status).toBe(401);
  });

  it('shows a secret once: never in a listing, a lookup, a revocation or the database', async () => {
    const issued = await admin.createKey('secret', 'secrets');
    const rotated = await admin.call('POST', `/v1/admin/api-keys/${issued.id}/rotate`, { overlapSeconds: 0 });
    const answers = [
      await admin.call('GET', '/v1/admin/api-keys'),
      await admin.call('GET', `/v1/admin/api-keys/${issued.id}`),
      await admin.call('DELETE', `/v1/admin/api-keys/${rotated.json.id}`),
      await admin.call('GET', '/v1/admin/tenants/secrets'),
    ];
    for (const secret of [issued.apiKey, rotated.json.apiKey as string]) {
      for (const a of answers) {
        expect(a.text).not.toContain(secret.slice(11));
        expect(a.text).not.toContain(hashSecret(secret));
      }
      const rows = await server.composition.sql.query<Record<string, unknown>>('SELECT * FROM api_keys');
      const dump = JSON.stringify(rows.rows);
      expect(dump).not.toContain(secret.slice(11));
      expect(dump).toContain(hashSecret(secret));
    }
  });

  it('a revoked key and a key past its overlap are refused like an unknown key', async () => {
    const issued = await admin.createKey('gone', 'gone');
    await admin.call('DELETE', `/v1/admin/api-keys/${issued.id}`);
    const revoked = await asKey(h.baseUrl, issued.apiKey)('GET', `/v1/api/accounts/${'1'.repeat(32)}`);
    const unknown = await asKey(h.baseUrl, `ta_${'x'.repeat(43)}`)(
      'GET',
      `/v1/api/accounts/${'1'.repeat(32)}`,
    );
    expect(revoked.status).toBe(401);
    expect(revoked.json).toEqual(unknown.json);
  });

  it('registers OAuth clients with the same operator token, and only with it', async () => {
    const body = { client_name: 'ops', redirect_uris: ['https://ops.example/cb'] };
    const ok = await request(h.baseUrl, 'POST', '/oauth/clients', { token: admin.token, body });
    expect(ok.status).toBe(201);
    expect(ok.json.client_id).toBeTruthy();
    const wrong = await request(h.baseUrl, 'POST', '/oauth/clients', { token: 'nope', body });
    expect(wrong.status).toBe(401);
  });

  it('keeps the generated token in a file only its owner can read, and never writes it to the log', async () => {
    expect((await stat(join(dataDir, 'admin-token'))).mode & 0o077).toBe(0);
    await admin.call('GET', '/v1/admin/api-keys');
    await request(h.baseUrl, 'GET', '/v1/admin/api-keys', { token: `${admin.token}x` });
    await admin.call('POST', '/v1/admin/api-keys', { label: 'x', tenant: 'BAD' });
    expect(lines.length).toBeGreaterThan(0);
    const log = lines.join('\n');
    expect(log).not.toContain(admin.token);
    expect(log).not.toContain(hashSecret(admin.token));
    expect(log).toMatch(/API key issued/);
  });
});
