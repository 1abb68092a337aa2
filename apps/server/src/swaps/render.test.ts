import { createFakeRateLimiter, createFixedClock, createMemoryOAuthStore } from '@token-actions/core/testing';
import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../http/respond.js';
import { createSwapsGuard } from './guard.js';
import { createGuardedApp } from './guarded-app.js';

function build() {
  const clock = createFixedClock(new Date('2025-01-01T00:00:00Z'));
  const logged: string[] = [];
  const guard = createSwapsGuard({
    store: createMemoryOAuthStore(),
    rateLimiter: createFakeRateLimiter(clock),
    clock,
    limits: { perClientPerMinute: 10, perAddressPerMinute: 7 },
  });
  const app = createGuardedApp(
    { guard, logger: { error: (_fields, message) => logged.push(message) }, maxBodyBytes: 1024 },
    (b) => {
      b.get('/v1/swap/store-down', () =>
        unwrap(
          errAsync({ code: 'STORE_UNAVAILABLE' as const, message: 'pg: connection refused at 10.0.0.5' }),
        ),
      );
      b.get('/v1/swap/aggregator-down', () =>
        unwrap(errAsync({ code: 'AGGREGATOR_UNAVAILABLE' as const, message: 'the aggregator timed out' })),
      );
      b.get('/v1/swap/no-pair', () =>
        unwrap(errAsync({ code: 'UNKNOWN_TOKEN_PAIR' as const, message: 'no pool for DOGE-SOL' })),
      );
    },
  );
  return { app, logged };
}

describe('swaps error pipeline', () => {
  it('renders a failed Result once, in its final shape, with the rate-limit state the guard counted', async () => {
    const { app } = build();
    const res = await app.request('/v1/swap/no-pair');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(res.headers.get('ratelimit')).toBe('"address";r=6;t=60');
    expect(await res.json()).toEqual({
      code: 'UNKNOWN_TOKEN_PAIR',
      message: 'no pool for DOGE-SOL',
      rateLimit: { limit: 7, remaining: 6 },
    });
  });

  it('hides the internals of a server failure and logs it; a failing aggregator (502) is shown', async () => {
    const { app, logged } = build();
    const down = await app.request('/v1/swap/store-down');
    expect(down.status).toBe(500);
    expect(await down.json()).toEqual({
      code: 'INTERNAL',
      message: 'the service could not complete the operation; retry shortly',
      rateLimit: { limit: 7, remaining: 6 },
    });
    expect(logged).toEqual(['operation failed']);
    const aggregator = await app.request('/v1/swap/aggregator-down');
    expect(aggregator.status).toBe(502);
    expect(await aggregator.json()).toMatchObject({
      code: 'AGGREGATOR_UNAVAILABLE',
      message: 'the aggregator timed out',
    });
  });

  it('answers a path under its prefixes that no route serves with its own 404, counted once', async () => {
    const { app } = build();
    const res = await app.request('/v1/project', { method: 'PUT' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      code: 'INVALID_INPUT',
      message: 'no route for PUT /v1/project',
      rateLimit: { limit: 7, remaining: 6 },
    });
  });
});
