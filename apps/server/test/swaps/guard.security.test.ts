import { describe, expect, it, onTestFinished } from 'vitest';
import {
  callSwap,
  createHarness,
  createTestWallet,
  obtainTokens,
  registerTestClient,
  serveHarnessOverNode,
} from '../fixtures/oauth-harness.js';

describe('interface B guard: bearer tokens (RFC 6750)', () => {
  it('challenges a request without a token with no error code, and a bad token with invalid_token', async () => {
    const h = createHarness();
    const missing = await callSwap(h, 'GET');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({
      code: 'INVALID_TOKEN',
      message: 'a bearer access token is required',
      rateLimit: { limit: 20, remaining: 19 },
    });
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="token-actions", scope="read"');

    const unknown = await callSwap(h, 'GET', 'taat_thisTokenWasNeverIssued');
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(unknown.body.code).toBe('INVALID_TOKEN');
    // Every answer reports the limit, the guard's own refusals too.
    for (const refused of [missing, unknown]) {
      expect(refused.headers.get('ratelimit-policy')).toBe('"address";q=20;w=60');
      expect(refused.headers.get('ratelimit')).toMatch(/^"address";r=1[89];t=\d+$/);
    }

    const malformed = await h.fetch(`${h.issuer}/v1/project/swap`, {
      headers: { authorization: 'Bearer a b c' },
    });
    expect(malformed.status).toBe(401);
    // Another scheme is not a bearer token at all: treated as a request without one.
    const basic = await h.fetch(`${h.issuer}/v1/project/swap`, { headers: { authorization: 'Basic YTpi' } });
    expect(basic.headers.get('www-authenticate')).toBe('Bearer realm="token-actions", scope="read"');
  });

  it('rejects a bad token even on a route that needs no scope', async () => {
    const h = createHarness();
    const res = await h.fetch(`${h.issuer}/v1/webhooks/transaction-complete`, {
      method: 'POST',
      headers: { authorization: 'Bearer taat_bogus' },
    });
    expect(res.status).toBe(401);
    const open = await h.fetch(`${h.issuer}/v1/webhooks/transaction-complete`, { method: 'POST' });
    expect(open.status).toBe(200);
    expect(await open.json()).toEqual({ received: true, rateLimit: { limit: 20, remaining: 18 } });
  });

  it('puts the subject wallet and client on the context', async () => {
    const h = createHarness();
    const wallet = await createTestWallet();
    const client = await registerTestClient(h);
    const { accessToken } = await obtainTokens(h, wallet, client);
    const res = await callSwap(h, 'GET', accessToken);
    expect(res.body).toEqual({
      tokenPair: 'SOL-USDC',
      subject: wallet.address,
      clientId: client.clientId,
      rateLimit: { limit: 100, remaining: 99 },
    });
  });
});

describe('interface B guard: rate limits and the rateLimit envelope', () => {
  // `own`: interface B's onError on the sub-app; `claimed`: none, the root's handler answers in
  // interface B's shape because the guard claimed the request (how createApp mounts it). Over
  // Node, the guard sets the headers on Node's response, which merges them into every answer.
  it.each([
    ['own', 'in process'],
    ['claimed', 'in process'],
    ['claimed', 'over Node'],
  ] as const)(
    'sets RateLimit-Policy and RateLimit on every response and rateLimit in every body, errors included (errors: %s, %s)',
    async (interfaceBErrors, transport) => {
      const h = createHarness({ perClientPerMinute: 5, interfaceBErrors });
      const client = await registerTestClient(h);
      const { accessToken } = await obtainTokens(h, await createTestWallet(), client);
      const node = transport === 'over Node' ? await serveHarnessOverNode(h) : undefined;
      onTestFinished(() => node?.close());
      const ok = await callSwap(h, 'GET', accessToken);
      expect(ok.headers.get('ratelimit-policy')).toBe('"client";q=5;w=60');
      expect(ok.headers.get('ratelimit')).toBe('"client";r=4;t=60');
      expect(ok.body.rateLimit).toEqual({ limit: 5, remaining: 4 });

      const forbidden = await callSwap(h, 'POST', accessToken);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toMatchObject({
        code: 'INSUFFICIENT_SCOPE',
        rateLimit: { limit: 5, remaining: 3 },
      });
      expect(forbidden.headers.get('www-authenticate')).toBe(
        'Bearer realm="token-actions", error="insufficient_scope", error_description="this operation needs the write scope", scope="write"',
      );

      const thrown = await h.fetch(`${h.issuer}/v1/broken`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(thrown.status).toBe(500);
      expect(await thrown.json()).toEqual({
        code: 'INTERNAL',
        message: 'internal server error',
        rateLimit: { limit: 5, remaining: 2 },
      });
      expect(thrown.headers.get('ratelimit')).toBe('"client";r=2;t=60');

      const plain = await h.fetch(`${h.issuer}/v1/plain-error`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(plain.status).toBe(418);
      expect(await plain.json()).toEqual({
        code: 'INVALID_INPUT',
        message: 'teapot',
        rateLimit: { limit: 5, remaining: 1 },
      });

      const notFound = await h.fetch(`${h.issuer}/v1/no-such-route`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(notFound.status).toBe(404);
      expect(await notFound.json()).toEqual({
        code: 'INVALID_INPUT',
        message: 'no route for GET /v1/no-such-route',
        rateLimit: { limit: 5, remaining: 0 },
      });
      expect(notFound.headers.get('ratelimit')).toBe('"client";r=0;t=60');

      h.clock.advance(20_000);
      const limited = await callSwap(h, 'GET', accessToken);
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ code: 'RATE_LIMITED', rateLimit: { limit: 5, remaining: 0 } });
      expect(limited.headers.get('retry-after')).toBe('40');
      expect(limited.headers.get('ratelimit')).toBe('"client";r=0;t=40');

      h.clock.advance(40_000);
      const nextWindow = await callSwap(h, 'GET', accessToken);
      expect(nextWindow.status).toBe(200);
      expect(nextWindow.body.rateLimit).toEqual({ limit: 5, remaining: 4 });
    },
  );

  it('counts all tokens of one client together, and different clients apart', async () => {
    const h = createHarness({ perClientPerMinute: 3 });
    const a = await registerTestClient(h, { name: 'A' });
    const b = await registerTestClient(h, { name: 'B' });
    const a1 = await obtainTokens(h, await createTestWallet(), a);
    const a2 = await obtainTokens(h, await createTestWallet(), a);
    const b1 = await obtainTokens(h, await createTestWallet(), b);
    const statuses = [];
    for (const token of [a1, a2, a1, a2]) statuses.push((await callSwap(h, 'GET', token.accessToken)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await callSwap(h, 'GET', b1.accessToken)).status).toBe(200);
  });

  it('limits requests without a valid token per client address', async () => {
    const h = createHarness({ perAddressPerMinute: 2 });
    const from = (address: string) => callSwap(h, 'GET', undefined, { 'x-test-client-address': address });
    expect((await from('10.0.0.1')).status).toBe(401);
    expect((await from('10.0.0.1')).status).toBe(401);
    const third = await from('10.0.0.1');
    expect(third.status).toBe(429);
    expect(third.headers.get('ratelimit-policy')).toBe('"address";q=2;w=60');
    expect(third.headers.get('retry-after')).toBe('60');
    // Invalid tokens count against the address too, so guessing tokens is throttled.
    const guess = await callSwap(h, 'GET', 'taat_guess', { 'x-test-client-address': '10.0.0.1' });
    expect(guess.status).toBe(429);
    expect((await from('10.0.0.2')).status).toBe(401);
  });

  it('fails closed with 503 and the envelope when the limiter is down', async () => {
    const { errAsync } = await import('neverthrow');
    const h = createHarness({
      rateLimiter: {
        hit: () => errAsync({ code: 'STORE_UNAVAILABLE' as const, message: 'rate limiter failed' }),
      },
    });
    const res = await callSwap(h, 'GET');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      code: 'STORE_UNAVAILABLE',
      message: 'rate limiting is unavailable, retry shortly',
      rateLimit: { limit: 20, remaining: 0 },
    });
  });
});
