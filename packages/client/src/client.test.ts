import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, scriptedFetch } from '../test/support/fetch.js';
import {
  createActionsClient,
  createAdminClient,
  createInterfaceAClient,
  createInterfaceBClient,
} from './client.js';
import { TokenActionsError } from './errors.js';

const BASE = 'http://service.test';
const ACCOUNT = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const SIGNATURE = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
const DONATION = { message: 'Donation of 1.5 SOL submitted', transactionId: SIGNATURE };
const RATE = { limit: 600, remaining: 599 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const donate = (client: ReturnType<typeof createInterfaceAClient>, idempotencyKey?: string | false) =>
  client.POST('/v1/api/donate/sol', {
    body: { account: ACCOUNT, amount: '1.5', priority: 'Medium' },
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  });

/**
 * Runs `promise` to its end under fake timers, and says how far the clock moved meanwhile. Only
 * the clock and timeouts are faked: the fetch bodies are streams that need the real event loop.
 */
async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown; elapsedMs: number }> {
  const start = Date.now();
  let done = false;
  const outcome = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  void outcome.finally(() => {
    done = true;
  });
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    if (vi.getTimerCount() > 0) await vi.advanceTimersToNextTimerAsync();
  }
  return { ...(await outcome), elapsedMs: Date.now() - start };
}

describe('Idempotency-Key', () => {
  it('is a fresh UUID on every POST, and absent on GET', async () => {
    const { fetch, sent } = scriptedFetch(json(200, DONATION), json(200, DONATION), json(200, {}));
    const a = createInterfaceAClient({ baseUrl: BASE, apiKey: 'ta_key', fetch });
    await donate(a);
    await donate(a);
    await a.GET('/v1/api/transaction/track/{transactionId}', {
      params: { path: { transactionId: SIGNATURE } },
    });
    const [first, second, track] = sent.map((s) => s.headers.get('idempotency-key'));
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(second).not.toBe(first);
    expect(track).toBeNull();
  });

  it('is the one given per call, whether as an option or a header parameter', async () => {
    const { fetch, sent } = scriptedFetch(json(200, DONATION));
    const a = createInterfaceAClient({ baseUrl: BASE, apiKey: 'ta_key', fetch });
    await donate(a, 'order-1234');
    await a.POST('/v1/api/accounts', { params: { header: { 'Idempotency-Key': 'account-for-user-7' } } });
    expect(sent.map((s) => s.headers.get('idempotency-key'))).toEqual(['order-1234', 'account-for-user-7']);
  });

  it('is absent when the call opts out, and on the Actions by default (their CORS does not admit it)', async () => {
    const { fetch, sent } = scriptedFetch(json(200, { transaction: 'AQ==' }));
    await donate(createInterfaceAClient({ baseUrl: BASE, apiKey: 'ta_key', fetch }), false);
    await createActionsClient({ baseUrl: BASE, fetch }).POST('/v1/actions/donate/sol', {
      params: { query: { amount: '0.1' } },
      body: { account: ACCOUNT },
    });
    expect(sent.map((s) => s.headers.get('idempotency-key'))).toEqual([null, null]);
  });
});

describe('retries', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resend a POST answered 503 with the same Idempotency-Key and the same body', async () => {
    const { fetch, sent } = scriptedFetch(
      json(503, { message: 'chain unavailable' }, { 'retry-after': '1' }),
      json(429, { message: 'slow down' }, { 'retry-after': '1' }),
      json(200, DONATION),
    );
    const a = createInterfaceAClient({ baseUrl: BASE, apiKey: 'ta_key', fetch });
    const { value } = await settle(donate(a));
    expect(value).toEqual(DONATION);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((s) => s.headers.get('idempotency-key'))).size).toBe(1);
    expect(new Set(sent.map((s) => s.body)).size).toBe(1);
    expect(JSON.parse(sent[2]!.body)).toEqual({ account: ACCOUNT, amount: '1.5', priority: 'Medium' });
  });

  it('wait as long as Retry-After says, in seconds or as an HTTP date', async () => {
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const { fetch, sent } = scriptedFetch(
      json(429, { message: 'slow down' }, { 'retry-after': '3' }),
      json(503, { message: 'later' }, { 'retry-after': 'Tue, 01 Jan 2030 00:00:05 GMT' }),
      json(200, DONATION),
    );
    const a = createInterfaceAClient({ baseUrl: BASE, apiKey: 'ta_key', fetch });
    await settle(donate(a));
    expect(sent.map((s) => s.at - sent[0]!.at)).toEqual([0, 3_000, 5_000]);
  });

  it('stop after maxAttempts and throw the last answer', async () => {
    const { fetch, sent } = scriptedFetch(json(503, { message: 'down' }, { 'retry-after': '0' }));
    const a = createInterfaceAClient({ baseUrl: BASE, apiKey: 'ta_key', fetch, retry: { maxAttempts: 4 } });
    const { error } = await settle(donate(a));
    expect(sent).toHaveLength(4);
    expect(error).toBeInstanceOf(TokenActionsError);
    expect(error).toMatchObject({ status: 503, message: 'down', retryAfterSeconds: 0 });
  });

  it('do not wait past the deadline: a Retry-After beyond it is thrown at once', async () => {
    const { fetch, sent } = scriptedFetch(
      json(429, { message: 'wait a minute' }, { 'retry-after': '60' }),
      json(200, DONATION),
    );
    const a = createInterfaceAClient({
      baseUrl: BASE,
      apiKey: 'ta_key',
      fetch,
      retry: { deadlineMs: 30_000 },
    });
    const { error, elapsedMs } = await settle(donate(a));
    expect(sent).toHaveLength(1);
    expect(elapsedMs).toBe(0);
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 60 });
  });

  it('back off without Retry-After, within the deadline', async () => {
    const { fetch, sent } = scriptedFetch(json(503, { message: 'down' }), json(200, DONATION));
    const a = createInterfaceAClient({
      baseUrl: BASE,
      apiKey: 'ta_key',
      fetch,
      retry: { baseDelayMs: 1_000 },
    });
    await settle(donate(a));
    const waited = sent[1]!.at - sent[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(500);
    expect(waited).toBeLessThanOrEqual(1_000);
  });

  it.each([400, 401, 404, 409, 422, 500, 502])('never happen on %i', async (status) => {
    const { fetch, sent } = scriptedFetch(json(status, { message: 'no' }, { 'retry-after': '0' }));
    const a = createInterfaceAClient({ baseUrl: BASE, apiKey: 'ta_key', fetch });
    const { error } = await settle(donate(a));
    expect(sent).toHaveLength(1);
    expect(error).toMatchObject({ status });
  });

  it('never resend a POST that carries no Idempotency-Key', async () => {
    const { fetch, sent } = scriptedFetch(json(503, { message: 'down' }, { 'retry-after': '0' }));
    const a = createInterfaceAClient({ baseUrl: BASE, apiKey: 'ta_key', fetch });
    const { error } = await settle(donate(a, false));
    expect(sent).toHaveLength(1);
    expect(error).toMatchObject({ status: 503 });
  });

  it('are off with retry: false', async () => {
    const { fetch, sent } = scriptedFetch(json(429, { message: 'slow down' }, { 'retry-after': '0' }));
    const a = createInterfaceAClient({ baseUrl: BASE, apiKey: 'ta_key', fetch, retry: false });
    await settle(donate(a));
    expect(sent).toHaveLength(1);
  });

  it('end when the call is aborted during a wait', async () => {
    const { fetch, sent } = scriptedFetch(json(503, { message: 'down' }, { 'retry-after': '10' }));
    const a = createInterfaceAClient({ baseUrl: BASE, apiKey: 'ta_key', fetch });
    const controller = new AbortController();
    const call = a.GET('/v1/api/accounts/{publicKey}', {
      params: { path: { publicKey: ACCOUNT } },
      signal: controller.signal,
    });
    const outcome = call.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort(new Error('user gave up'));
    expect(await outcome).toMatchObject({ message: 'user gave up' });
    expect(sent).toHaveLength(1);
  });
});

describe('errors', () => {
  it('carry status, code, message, body and the request id', async () => {
    const body = { code: 'INSUFFICIENT_SCOPE', message: 'this route needs the write scope', rateLimit: RATE };
    const { fetch } = scriptedFetch(json(403, body, { 'x-request-id': 'req-42' }));
    const b = createInterfaceBClient({ baseUrl: BASE, accessToken: 'at', fetch });
    const error = await b
      .POST('/v1/project/swap', { body: { tokenPair: 'SOL-USDC', amount: '1' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenActionsError);
    expect(error).toMatchObject({
      name: 'TokenActionsError',
      status: 403,
      code: 'INSUFFICIENT_SCOPE',
      message: 'this route needs the write scope',
      rateLimit: RATE,
      body,
      requestId: 'req-42',
    });
  });

  it("read interface A's {message}, OAuth's {error, error_description} and a non-JSON body", async () => {
    const { fetch } = scriptedFetch(
      json(400, { message: 'amount must be a positive decimal' }),
      json(401, { error: 'invalid_client', error_description: 'unknown client' }),
      new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    const a = createInterfaceAClient({ baseUrl: BASE, apiKey: 'ta_key', fetch });
    const admin = createAdminClient({ baseUrl: BASE, adminToken: 'adm', fetch });
    const first = await donate(a).catch((e: unknown) => e);
    const second = await admin.GET('/v1/admin/api-keys').catch((e: unknown) => e);
    const third = await admin.GET('/v1/admin/tenants').catch((e: unknown) => e);
    expect(first).toMatchObject({
      status: 400,
      message: 'amount must be a positive decimal',
      code: undefined,
    });
    expect(second).toMatchObject({ status: 401, code: 'invalid_client', message: 'unknown client' });
    expect(third).toMatchObject({ status: 502, message: '<html>bad gateway</html>', code: undefined });
  });
});

describe('results', () => {
  it("surface interface B's rateLimit", async () => {
    const { fetch } = scriptedFetch(
      json(200, {
        tokenPair: 'SOL-USDC',
        pool: {},
        swaps: [],
        page: 1,
        pageSize: 20,
        total: 0,
        rateLimit: RATE,
      }),
    );
    const b = createInterfaceBClient({ baseUrl: BASE, accessToken: 'at', fetch });
    const info = await b.GET('/v1/project/swap', { params: { query: { tokenPair: 'SOL-USDC' } } });
    expect(info.rateLimit).toEqual(RATE);
  });

  it('keep amounts as the decimal strings they are on the wire, past 2^53', async () => {
    const u64Max = '18446744073709551615';
    const { fetch } = scriptedFetch(
      json(200, { publicKey: ACCOUNT, balances: [{ currency: 'PROJ', amount: u64Max }] }),
    );
    const a = createInterfaceAClient({ baseUrl: BASE, apiKey: 'ta_key', fetch });
    const account = await a.GET('/v1/api/accounts/{publicKey}', { params: { path: { publicKey: ACCOUNT } } });
    expect(JSON.stringify(account)).toContain(`"${u64Max}"`);
    expect(BigInt(u64Max)).toBe(2n ** 64n - 1n);
  });
});

describe('credentials', () => {
  it('send the API key, the admin token, or the access token (asked for on each request)', async () => {
    const { fetch, sent } = scriptedFetch(json(200, {}));
    let n = 0;
    const b = createInterfaceBClient({ baseUrl: BASE, accessToken: async () => `token-${++n}`, fetch });
    await createInterfaceAClient({ baseUrl: BASE, apiKey: 'ta_key', fetch }).POST('/v1/api/accounts');
    await createAdminClient({ baseUrl: BASE, adminToken: 'taadm_x', fetch }).GET('/v1/admin/api-keys');
    await b.GET('/v1/webhooks/secret');
    await b.GET('/v1/webhooks/secret');
    await createActionsClient({ baseUrl: BASE, fetch }).GET('/actions.json');
    expect(sent.map((s) => s.headers.get('authorization'))).toEqual([
      'Bearer ta_key',
      'Bearer taadm_x',
      'Bearer token-1',
      'Bearer token-2',
      null,
    ]);
    expect(sent.map((s) => `${s.method} ${s.url.pathname}`)).toEqual([
      'POST /v1/api/accounts',
      'GET /v1/admin/api-keys',
      'GET /v1/webhooks/secret',
      'GET /v1/webhooks/secret',
      'GET /actions.json',
    ]);
  });
});
