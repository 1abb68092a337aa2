import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOf, asKey } from '../admin/support.js';
import { type Harness, startHarness } from '../support/harness.js';

/** A public unicast address: registration needs no DNS to accept it. */
const PUBLIC_URL = 'https://93.184.215.14/hooks/token-actions';

/** Targets the hostile-input pass reported accepted, and their kin; all refused by default. */
const INTERNAL_URLS = [
  'http://127.0.0.1:6379/',
  'http://[::1]:5432/',
  'http://169.254.169.254/latest/meta-data/',
  'http://10.0.0.1/',
  'http://localhost:8080/hook',
  'http://[::ffff:127.0.0.1]/',
  'http://[fd00::1]/',
  'http://192.168.1.10/',
  'http://0.0.0.0/',
];

describe('interface A webhook endpoints: tenants and the SSRF guard at registration', () => {
  let h: Harness;
  let alpha: ReturnType<typeof asKey>;
  let beta: ReturnType<typeof asKey>;
  let admin: ReturnType<typeof adminOf>;

  beforeAll(async () => {
    h = await startHarness({ ADMIN_TOKEN: 'admin-token-for-webhook-endpoint-tests-0123' });
    admin = adminOf(h);
    alpha = asKey(h.baseUrl, (await admin.createKey('alpha', 'alpha')).apiKey);
    beta = asKey(h.baseUrl, (await admin.createKey('beta', 'beta')).apiKey);
  }, 60_000);
  afterAll(() => h?.close());

  it("registers, lists and deletes the tenant's own endpoint, with its secret shown once", async () => {
    const created = await alpha('POST', '/v1/api/webhooks', { url: PUBLIC_URL, description: 'orders' });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ tenant: 'alpha', url: PUBLIC_URL, description: 'orders' });
    expect(created.json.id).toMatch(/^we_/);
    expect(created.json.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.json.events).toContain('transaction.finalized');

    const listed = await alpha('GET', '/v1/api/webhooks');
    expect(listed.json.webhooks.map((w: { id: string }) => w.id)).toEqual([created.json.id]);
    const one = await alpha('GET', `/v1/api/webhooks/${created.json.id}`);
    expect(one.status).toBe(200);
    expect(one.text).not.toContain(created.json.secret);
    expect(listed.text).not.toContain(created.json.secret);

    expect((await alpha('DELETE', `/v1/api/webhooks/${created.json.id}`)).json).toEqual({
      id: created.json.id,
      deleted: true,
    });
    expect((await alpha('GET', `/v1/api/webhooks/${created.json.id}`)).status).toBe(404);
    expect((await alpha('GET', '/v1/api/webhooks')).json.webhooks).toEqual([]);
  });

  it("answers another tenant's endpoint exactly like an unknown one (404), and leaves it in place", async () => {
    const mine = (await alpha('POST', '/v1/api/webhooks', { url: PUBLIC_URL })).json;
    const unknown = await beta('GET', '/v1/api/webhooks/we_doesnotexist');
    const theirs = await beta('GET', `/v1/api/webhooks/${mine.id}`);
    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(theirs.json.message.replace(mine.id, 'X')).toBe(
      unknown.json.message.replace('we_doesnotexist', 'X'),
    );
    expect((await beta('DELETE', `/v1/api/webhooks/${mine.id}`)).status).toBe(404);
    expect((await beta('GET', '/v1/api/webhooks')).json.webhooks).toEqual([]);
    // The operator names the tenant; naming the wrong one is a 404 as well.
    expect((await admin.call('DELETE', `/v1/admin/webhooks/${mine.id}?tenant=beta`)).status).toBe(404);
    const betaList = await admin.call('GET', '/v1/admin/webhooks?tenant=beta');
    expect(betaList.json.webhooks).toEqual([]);
    expect((await alpha('GET', `/v1/api/webhooks/${mine.id}`)).status).toBe(200);
    expect(
      (await admin.call('GET', '/v1/admin/webhooks?tenant=alpha')).json.webhooks.map(
        (w: { id: string }) => w.id,
      ),
    ).toContain(mine.id);
    expect((await admin.call('DELETE', `/v1/admin/webhooks/${mine.id}?tenant=alpha`)).status).toBe(200);
    expect((await alpha('GET', `/v1/api/webhooks/${mine.id}`)).status).toBe(404);
  });

  it('refuses loopback, private, link-local, unique-local and metadata targets, by the tenant and by the operator', async () => {
    for (const url of INTERNAL_URLS) {
      const own = await alpha('POST', '/v1/api/webhooks', { url });
      expect(own.status, url).toBe(400);
      expect(own.json.message, url).toMatch(/resolves to a|unspecified/);
      const operator = await admin.call('POST', '/v1/admin/webhooks', { tenant: 'alpha', url });
      expect(operator.status, url).toBe(400);
      expect(operator.json.code).toBe('INVALID_INPUT');
    }
    expect(
      (await alpha('POST', '/v1/api/webhooks', { url: 'http://169.254.169.254/' })).json.message,
    ).toMatch(/cloud metadata/);
    expect((await alpha('GET', '/v1/api/webhooks')).json.webhooks).toEqual([]);
  });

  it('refuses what is not a webhook URL, and caps the endpoints of one tenant', async () => {
    const bad = [
      {},
      { url: '' },
      { url: 'hooks.example.com/x' },
      { url: 'ftp://93.184.215.14/x' },
      { url: 'javascript:alert(1)' },
      { url: 'https://user:pass@93.184.215.14/x' },
      { url: `https://93.184.215.14/${'a'.repeat(2100)}` },
      { url: PUBLIC_URL, description: 'x'.repeat(129) },
      { url: PUBLIC_URL, description: 'line\nbreak' },
      { url: PUBLIC_URL, extra: true },
    ];
    for (const body of bad)
      expect((await beta('POST', '/v1/api/webhooks', body)).status, JSON.stringify(body).slice(0, 80)).toBe(
        400,
      );
    expect(
      (await admin.call('POST', '/v1/admin/webhooks', { tenant: 'nobody', url: PUBLIC_URL })).status,
    ).toBe(404);
    expect(
      (await admin.call('POST', '/v1/admin/webhooks', { tenant: 'Bad Tenant', url: PUBLIC_URL })).status,
    ).toBe(400);
    expect((await admin.call('POST', '/v1/admin/webhooks', { url: PUBLIC_URL })).status).toBe(400);
    expect((await asKey(h.baseUrl, 'ta_nope')('GET', '/v1/api/webhooks')).status).toBe(401);
    expect(
      (await asKey(h.baseUrl, admin.token)('POST', '/v1/admin/webhooks', { tenant: 'beta' })).status,
    ).toBe(400);
    expect((await beta('POST', '/v1/admin/webhooks', { tenant: 'beta', url: PUBLIC_URL })).status).toBe(401);

    for (let i = 0; i < 10; i++)
      expect((await beta('POST', '/v1/api/webhooks', { url: `${PUBLIC_URL}/${i}` })).status).toBe(200);
    const over = await beta('POST', '/v1/api/webhooks', { url: `${PUBLIC_URL}/11` });
    expect(over.status).toBe(400);
    expect(over.json.message).toMatch(/at most 10/);
  });
});
