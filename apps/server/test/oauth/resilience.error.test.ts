import type { OAuthStore } from '@token-actions/core';
import { createFakeRateLimiter, createFixedClock, createMemoryOAuthStore } from '@token-actions/core/testing';
import { Hono } from 'hono';
import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { createOAuthApp } from '../../src/oauth/index.js';
import { createSwapsGuard } from '../../src/swaps/index.js';
import { captureLogger, ISSUER } from '../fixtures/oauth-harness.js';

const form = (body: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(body).toString(),
});

function failingStore(): OAuthStore {
  const down = () =>
    errAsync({ code: 'STORE_UNAVAILABLE' as const, message: 'oauth store: get client failed' });
  const healthy = createMemoryOAuthStore();
  return {
    ...healthy,
    clients: { upsert: down, get: down, publicRedirectUris: down },
    findToken: down,
    consumeCode: down,
  };
}

function build(store: OAuthStore, withAbuseLimit = false) {
  const clock = createFixedClock(new Date());
  const logger = captureLogger();
  const app = new Hono();
  app.route(
    '/',
    createOAuthApp({
      store,
      clock,
      issuer: ISSUER,
      logger,
      accessTokenTtlSec: 900,
      refreshTokenTtlSec: 86_400,
      codeTtlSec: 60,
      ...(withAbuseLimit
        ? {
            abuseLimit: {
              rateLimiter: createFakeRateLimiter(clock),
              perAddressPerMinute: 3,
              addressOf: () => '10.1.1.1',
            },
          }
        : {}),
    }),
  );
  const guard = createSwapsGuard({
    store,
    rateLimiter: createFakeRateLimiter(clock),
    clock,
    limits: { perClientPerMinute: 10, perAddressPerMinute: 10 },
  });
  app.use('/v1/*', guard.rateLimit);
  app.get('/v1/project/swap', guard.requireScope('read'), (c) => c.json({}));
  return { app, logger };
}

describe('when the store is down', () => {
  it('answers 503 with the documented bodies and never a stack trace', async () => {
    const { app, logger } = build(failingStore());
    const token = await app.request(
      `${ISSUER}/oauth/token`,
      form({ grant_type: 'refresh_token', refresh_token: 'x', client_id: 'c' }),
    );
    expect(token.status).toBe(503);
    expect(await token.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'the authorization server storage is unavailable',
    });
    const page = await app.request(
      `${ISSUER}/oauth/authorize?client_id=c&redirect_uri=https://a.example/cb&response_type=code`,
    );
    expect(page.status).toBe(503);
    expect(page.headers.get('content-type')).toContain('text/html');
    const guarded = await app.request(`${ISSUER}/v1/project/swap`, {
      headers: { authorization: 'Bearer taat_x' },
    });
    expect(guarded.status).toBe(503);
    expect(await guarded.json()).toMatchObject({ code: 'STORE_UNAVAILABLE', rateLimit: { remaining: 0 } });
    expect(logger.lines.some((l) => l.includes('STORE_UNAVAILABLE'))).toBe(true);
  });
});

describe('abuse limit on the unauthenticated OAuth endpoints', () => {
  it('caps sign-in challenges and token requests per address with 429 and Retry-After', async () => {
    const { app } = build(createMemoryOAuthStore(), true);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await app.request(`${ISSUER}/oauth/authorize/challenge`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          address: '11111111111111111111111111111111',
          client_id: 'nobody',
          scope: 'read',
        }),
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    expect(last?.headers.get('retry-after')).toBe('60');
    const token = await app.request(`${ISSUER}/oauth/token`, form({ grant_type: 'refresh_token' }));
    expect(token.status).toBe(429);
  });
});
