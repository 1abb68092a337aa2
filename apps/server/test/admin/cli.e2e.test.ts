import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess, stopGracefully } from '../scale/process.js';
import { cli } from '../support/cli.js';
import { asKey } from './support.js';

/**
 * The operator's CLI against a running server on its embedded defaults: the server holds the
 * embedded database, so the CLI goes through the admin API, finding the server and the token in
 * $DATA_DIR/dev-credentials.json.
 */
describe('api-keys and tenants CLI while the server runs', () => {
  let dataDir: string;
  let server: ServerProcess;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ta-cli-'));
    server = await startServerProcess({ DATA_DIR: dataDir, LOCALNET_RPC_PORT: '0' });
  }, 90_000);
  afterAll(async () => {
    if (server) await stopGracefully(server);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates, lists, rotates and revokes a key, and sets a tenant’s permission', async () => {
    const env = { DATA_DIR: dataDir };
    const created = await cli(['api-keys', 'create', '--label', 'from the cli', '--tenant', 'cli-co'], env);
    expect(created.code, created.err).toBe(0);
    const key = JSON.parse(created.out) as { id: string; apiKey: string; tenant: string };
    expect(key.tenant).toBe('cli-co');
    expect(created.err).toMatch(/Store the apiKey now/);
    const as = asKey(server.baseUrl, key.apiKey);
    expect((await as('POST', '/v1/api/accounts', {})).status).toBe(200);

    const listed = await cli(['api-keys', 'list', '--tenant', 'cli-co'], env);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.out).apiKeys).toEqual([
      expect.objectContaining({ id: key.id, status: 'active' }),
    ]);
    expect(listed.out).not.toContain(key.apiKey);

    const rotated = await cli(['api-keys', 'rotate', key.id, '--overlap-seconds', '0'], env);
    expect(rotated.code, rotated.err).toBe(0);
    const next = JSON.parse(rotated.out) as { id: string; apiKey: string };
    expect((await as('POST', '/v1/api/accounts', {})).status).toBe(401);
    expect((await asKey(server.baseUrl, next.apiKey)('POST', '/v1/api/accounts', {})).status).toBe(200);

    const revoked = await cli(['api-keys', 'revoke', next.id], env);
    expect(revoked.code, revoked.err).toBe(0);
    expect(JSON.parse(revoked.out).status).toBe('revoked');
    expect((await asKey(server.baseUrl, next.apiKey)('POST', '/v1/api/accounts', {})).status).toBe(401);

    const set = await cli(['tenants', 'set', 'cli-co', '--treasury-payments', 'true'], env);
    expect(set.code, set.err).toBe(0);
    expect(JSON.parse(set.out)).toMatchObject({ id: 'cli-co', treasuryPayments: true });
    const got = await cli(['tenants', 'get', 'cli-co'], env);
    expect(JSON.parse(got.out).treasuryPayments).toBe(true);
  }, 60_000);

  it('takes the server and token from --url and ADMIN_TOKEN, and reports refusals with exit code 1', async () => {
    const noFile = { DATA_DIR: join(dataDir, 'nothing-here') };
    const missing = await cli(['api-keys', 'list'], noFile);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no server URL/);
    const wrong = await cli(['api-keys', 'list', '--url', server.baseUrl], {
      ...noFile,
      ADMIN_TOKEN: 'w'.repeat(40),
    });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/^401: missing or invalid admin token$/m);
    const unknown = await cli(['api-keys', 'revoke', 'key_nope'], { DATA_DIR: dataDir });
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/^404: API key key_nope does not exist$/m);
    const usage = await cli(['api-keys', 'frobnicate'], { DATA_DIR: dataDir });
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/Usage: cli.js api-keys create/);
  }, 60_000);
});
