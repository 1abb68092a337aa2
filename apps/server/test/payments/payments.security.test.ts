import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

describe('interface A security', () => {
  let h: Harness;
  let sender: string;
  beforeAll(async () => {
    h = await startHarness();
    sender = (await h.call('POST', '/v1/api/accounts', {})).json.publicKey;
    await h.call('POST', `/v1/api/accounts/${sender}/airdrop`, { currency: 'USDC', amount: '100' });
  }, 60_000);
  afterAll(async () => h?.close());

  const routes: Array<[string, string]> = [
    ['POST', '/v1/api/mint'],
    ['POST', '/v1/api/donate/sol'],
    ['POST', '/v1/api/donate/usdc'],
    ['POST', '/v1/api/donate/proj'],
    ['POST', '/v1/api/charity/donate'],
    ['POST', '/v1/api/merchant/payment'],
    ['POST', '/v1/api/transaction/preview'],
    ['POST', '/v1/api/transaction/sign'],
    ['GET', `/v1/api/transaction/track/${'5'.repeat(87)}`],
    ['POST', '/v1/api/accounts'],
  ];

  it.each(routes)('%s %s without an API key is 401', async (method, path) => {
    const res = await fetch(`${h.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: method === 'POST' ? '{}' : undefined,
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toMatch(/missing API key/);
  });

  it.each(routes)('%s %s with a wrong API key is 401', async (method, path) => {
    const res = await h.call(method, path, method === 'POST' ? {} : undefined, {
      authorization: 'Bearer ta_wrong',
    });
    expect(res.status).toBe(401);
    expect(res.json.message).toBe('invalid API key');
  });

  it('accepts the Bearer scheme in any case (RFC 9110) and nothing else', async () => {
    const path = `/v1/api/accounts/${sender}`;
    expect((await h.call('GET', path, undefined, { authorization: `bearer ${h.apiKey}` })).status).toBe(200);
    expect((await h.call('GET', path, undefined, { authorization: `BEARER ${h.apiKey}` })).status).toBe(200);
    expect((await h.call('GET', path, undefined, { authorization: `Basic ${h.apiKey}` })).status).toBe(401);
    expect((await h.call('GET', path, undefined, { authorization: h.apiKey })).status).toBe(401);
  });

  it('never echoes the API key or a managed secret in responses', async () => {
    const bodies = [
      await h.call('POST', '/v1/api/donate/usdc', { account: sender, amount: 'abc', priority: 'Low' }),
      await h.call('GET', `/v1/api/accounts/${sender}`),
      await h.call('POST', '/v1/api/accounts', {}),
    ];
    for (const b of bodies) {
      const text = JSON.stringify(b.json);
      expect(text).not.toContain(h.apiKey);
      expect(text).not.toMatch(/secret|ciphertext|private/i);
    }
  });

  it('cannot spend from an account the service does not manage', async () => {
    const res = await h.call('POST', '/v1/api/merchant/payment', {
      merchant: sender,
      account: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
      amount: '1',
      currency: 'USDC',
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/not an account managed by this service/);
  });

  describe('Idempotency-Key', () => {
    it('replays the first response for the same key and body, executing once', async () => {
      const body = { account: sender, amount: '1', priority: 'Low' };
      const key = `k-${Date.now()}`;
      const before = (await h.call('GET', `/v1/api/accounts/${sender}`)).json.balances.find(
        (b: any) => b.currency === 'USDC',
      ).baseUnits;
      const first = await h.call('POST', '/v1/api/donate/usdc', body, { 'idempotency-key': key });
      const second = await h.call('POST', '/v1/api/donate/usdc', body, { 'idempotency-key': key });
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.json.transactionId).toBe(first.json.transactionId);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      const after = (await h.call('GET', `/v1/api/accounts/${sender}`)).json.balances.find(
        (b: any) => b.currency === 'USDC',
      ).baseUnits;
      expect(BigInt(before) - BigInt(after)).toBe(1_000_000n);
    });

    it('rejects the same key with a different body with 409', async () => {
      const key = `k2-${Date.now()}`;
      await h.call(
        'POST',
        '/v1/api/donate/usdc',
        { account: sender, amount: '1', priority: 'Low' },
        { 'idempotency-key': key },
      );
      const res = await h.call(
        'POST',
        '/v1/api/donate/usdc',
        { account: sender, amount: '2', priority: 'Low' },
        { 'idempotency-key': key },
      );
      expect(res.status).toBe(409);
      expect(res.json.message).toMatch(/different request body/);
    });

    it('concurrent requests with one key execute once', async () => {
      const key = `k3-${Date.now()}`;
      const body = { account: sender, amount: '0.5', priority: 'Low' };
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          h.call('POST', '/v1/api/donate/usdc', body, { 'idempotency-key': key }),
        ),
      );
      const ok = results.filter((r) => r.status === 200);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      expect(new Set(ok.map((r) => r.json.transactionId)).size).toBe(1);
      for (const r of results.filter((x) => x.status !== 200)) {
        expect(r.status).toBe(409);
        expect(r.json.message).toMatch(/still in progress/);
      }
    });

    it('refuses a malformed key', async () => {
      const res = await h.call(
        'POST',
        '/v1/api/donate/usdc',
        { account: sender, amount: '1', priority: 'Low' },
        { 'idempotency-key': 'x'.repeat(300) },
      );
      expect(res.status).toBe(400);
    });
  });
});
