import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { adminOf, asKey, sleep } from './support.js';

describe('admin API: the operator issues, lists, rotates and revokes keys', () => {
  let h: Harness;
  let admin: ReturnType<typeof adminOf>;
  beforeAll(async () => {
    h = await startHarness();
    admin = adminOf(h);
  }, 60_000);
  afterAll(async () => h?.close());

  it('writes the generated operator token to dev-credentials.json as adminToken', async () => {
    const file = JSON.parse(await readFile(h.server.credentialsPath, 'utf8')) as Record<string, unknown>;
    expect(file.adminToken).toBe(admin.token);
    expect(String(file.adminToken).length).toBeGreaterThanOrEqual(32);
  });

  it('issues a key once (201), which then works on interface A for its tenant', async () => {
    const res = await admin.call('POST', '/v1/admin/api-keys', { label: 'acme production', tenant: 'acme' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ label: 'acme production', tenant: 'acme' });
    expect(res.json.id).toMatch(/^key_/);
    expect(res.json.apiKey).toMatch(/^ta_[A-Za-z0-9]{43}$/);
    expect(res.json.prefix).toBe(res.json.apiKey.slice(0, 11));
    expect(Number.isNaN(Date.parse(res.json.createdAt))).toBe(false);
    const acme = asKey(h.baseUrl, res.json.apiKey);
    const account = await acme('POST', '/v1/api/accounts', {});
    expect(account.status).toBe(200);
    expect((await acme('GET', `/v1/api/accounts/${account.json.publicKey}`)).json.managed).toBe(true);
  });

  it('gives a key without a tenant a new tenant of its own', async () => {
    const a = await admin.createKey('solo one');
    const b = await admin.createKey('solo two');
    expect(a.tenant).toMatch(/^ten_[a-z0-9]{25}$/);
    expect(b.tenant).not.toBe(a.tenant);
  });

  it('lists keys with prefix, label, tenant, dates and status, never the secret or its hash', async () => {
    const issued = await admin.createKey('listed', 'listing');
    await asKey(h.baseUrl, issued.apiKey)('GET', `/v1/api/accounts/${'1'.repeat(32)}`);
    const all = await admin.call('GET', '/v1/admin/api-keys');
    expect(all.status).toBe(200);
    const mine = all.json.apiKeys.find((k: { id: string }) => k.id === issued.id);
    expect(mine).toMatchObject({
      prefix: issued.apiKey.slice(0, 11),
      label: 'listed',
      tenant: 'listing',
      status: 'active',
      revokedAt: null,
      expiresAt: null,
    });
    expect(Date.parse(mine.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(issued.createdAt));
    expect(all.text).not.toContain(issued.apiKey);
    expect(all.text).not.toContain(issued.apiKey.slice(11));
    const dev = all.json.apiKeys.find((k: { label: string }) => k.label === 'development');
    expect(dev).toMatchObject({ tenant: 'default', status: 'active' });
    const filtered = await admin.call('GET', '/v1/admin/api-keys?tenant=listing');
    expect(filtered.json.apiKeys.map((k: { id: string }) => k.id)).toEqual([issued.id]);
    expect((await admin.call('GET', `/v1/admin/api-keys/${issued.id}`)).json).toEqual(mine);
  });

  it('revokes a key: 401 on the very next request', async () => {
    const issued = await admin.createKey('to revoke', 'revoking');
    const as = asKey(h.baseUrl, issued.apiKey);
    expect((await as('POST', '/v1/api/accounts', {})).status).toBe(200);
    const revoked = await admin.call('DELETE', `/v1/admin/api-keys/${issued.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.json).toMatchObject({ id: issued.id, status: 'revoked' });
    expect(Date.parse(revoked.json.revokedAt)).toBeLessThanOrEqual(Date.now());
    const refused = await as('POST', '/v1/api/accounts', {});
    expect(refused.status).toBe(401);
    expect(refused.json).toEqual({ message: 'invalid API key', code: 'UNAUTHORIZED' });
    // Revoking again changes nothing.
    expect((await admin.call('DELETE', `/v1/admin/api-keys/${issued.id}`)).json.revokedAt).toBe(
      revoked.json.revokedAt,
    );
  });

  it('rotates a key: the new one works at once, the old one until the overlap ends', async () => {
    const issued = await admin.createKey('rotating', 'rotation');
    const old = asKey(h.baseUrl, issued.apiKey);
    const account = (await old('POST', '/v1/api/accounts', {})).json.publicKey as string;
    const rotated = await admin.call('POST', `/v1/admin/api-keys/${issued.id}/rotate`, { overlapSeconds: 2 });
    expect(rotated.status).toBe(201);
    expect(rotated.json).toMatchObject({
      label: 'rotating',
      tenant: 'rotation',
      previous: { id: issued.id },
    });
    expect(rotated.json.apiKey).not.toBe(issued.apiKey);
    const fresh = asKey(h.baseUrl, rotated.json.apiKey);
    // Same tenant: the new key sees what the old one created.
    expect((await fresh('GET', `/v1/api/accounts/${account}`)).json.managed).toBe(true);
    expect((await old('GET', `/v1/api/accounts/${account}`)).status).toBe(200);
    const expiresAt = Date.parse(rotated.json.previous.expiresAt);
    await sleep(Math.max(0, expiresAt - Date.now()) + 100);
    expect((await old('GET', `/v1/api/accounts/${account}`)).status).toBe(401);
    expect((await fresh('GET', `/v1/api/accounts/${account}`)).status).toBe(200);
    expect((await admin.call('GET', `/v1/admin/api-keys/${issued.id}`)).json.status).toBe('expired');
  });

  it('replays an Idempotency-Key across a rotation: keys belong to the tenant', async () => {
    const issued = await admin.createKey('idem', 'idempotent');
    const first = await asKey(h.baseUrl, issued.apiKey)(
      'POST',
      '/v1/api/accounts',
      {},
      { 'idempotency-key': 'one' },
    );
    const rotated = await admin.call('POST', `/v1/admin/api-keys/${issued.id}/rotate`, {});
    const again = await asKey(h.baseUrl, rotated.json.apiKey)(
      'POST',
      '/v1/api/accounts',
      {},
      { 'idempotency-key': 'one' },
    );
    expect(again.json).toEqual(first.json);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('lets a tenant pay from the treasury only once the operator allows it; the default tenant may', async () => {
    const issued = await admin.createKey('shop', 'shop');
    const shop = asKey(h.baseUrl, issued.apiKey);
    const charity = (await shop('POST', '/v1/api/accounts', {})).json.publicKey as string;
    const body = { charity, amount: '0.001', currency: 'SOL' };
    const refused = await shop('POST', '/v1/api/charity/donate', body);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toMatch(/may not pay from the project treasury/);
    expect((await admin.call('GET', '/v1/admin/tenants/shop')).json).toMatchObject({
      id: 'shop',
      treasuryPayments: false,
    });
    const patched = await admin.call('PATCH', '/v1/admin/tenants/shop', { treasuryPayments: true });
    expect(patched.status).toBe(200);
    expect(patched.json.treasuryPayments).toBe(true);
    expect((await shop('POST', '/v1/api/charity/donate', body)).status).toBe(200);
    expect(
      (
        await h.call('POST', '/v1/api/merchant/payment', {
          merchant: charity,
          amount: '0.001',
          currency: 'SOL',
        })
      ).status,
    ).toBe(200);
    const tenants = await admin.call('GET', '/v1/admin/tenants');
    expect(tenants.json.tenants.map((t: { id: string }) => t.id)).toEqual(
      expect.arrayContaining(['default', 'shop']),
    );
  });
});
