import type { RateLimiterPort } from '@token-actions/core';
import { createFakeRateLimiter } from '@token-actions/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedis, requireUnderCi, TEST_REDIS_URL } from '../../test/support/services.js';
import { createMemoryRateLimiter } from './memory.js';
import { createRedisRateLimiter } from './redis.js';

const redis = await connectRedis(TEST_REDIS_URL);
requireUnderCi('Redis', TEST_REDIS_URL, redis !== undefined);
const prefix = `ratelimit-test:${process.pid}:${Date.now()}:`;

afterAll(async () => {
  if (!redis) return;
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

const limiters: { name: string; make: () => RateLimiterPort }[] = [
  { name: 'core fake', make: () => createFakeRateLimiter() },
  { name: 'memory', make: () => createMemoryRateLimiter() },
];
if (redis) limiters.push({ name: 'redis', make: () => createRedisRateLimiter(redis, { prefix }) });

let keyCounter = 0;
const freshKey = () => `k${++keyCounter}`;

describe.each(limiters)('RateLimiterPort contract: $name', ({ make }) => {
  it('admits exactly `limit` hits per window and counts remaining down to 0', async () => {
    const limiter = make();
    const key = freshKey();
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push((await limiter.hit(key, 3, 60_000))._unsafeUnwrap());
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0, 0]);
    for (const d of decisions) {
      expect(d.limit).toBe(3);
      expect(d.resetMs).toBeGreaterThan(0);
      expect(d.resetMs).toBeLessThanOrEqual(60_000);
    }
  });

  it('keeps keys apart', async () => {
    const limiter = make();
    const [a, b] = [freshKey(), freshKey()];
    await limiter.hit(a, 1, 60_000);
    expect((await limiter.hit(a, 1, 60_000))._unsafeUnwrap().allowed).toBe(false);
    expect((await limiter.hit(b, 1, 60_000))._unsafeUnwrap().allowed).toBe(true);
  });

  it('is exact under concurrent hits', async () => {
    const limiter = make();
    const key = freshKey();
    const decisions = await Promise.all(Array.from({ length: 250 }, () => limiter.hit(key, 100, 60_000)));
    const allowed = decisions.map((d) => d._unsafeUnwrap()).filter((d) => d.allowed);
    expect(allowed).toHaveLength(100);
    expect(new Set(allowed.map((d) => d.remaining)).size).toBe(100);
  });

  it('starts a new window once the old one ended', async () => {
    const limiter = make();
    const key = freshKey();
    expect((await limiter.hit(key, 1, 150))._unsafeUnwrap().allowed).toBe(true);
    expect((await limiter.hit(key, 1, 150))._unsafeUnwrap().allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const next = (await limiter.hit(key, 1, 150))._unsafeUnwrap();
    expect(next).toMatchObject({ allowed: true, remaining: 0 });
  });
});

describe('redis rate limiter failure', () => {
  it('reports STORE_UNAVAILABLE instead of throwing when Redis fails', async () => {
    const broken = createRedisRateLimiter({ eval: () => Promise.reject(new Error('connection refused')) });
    const result = await broken.hit('k', 1, 1000);
    expect(result._unsafeUnwrapErr().code).toBe('STORE_UNAVAILABLE');
  });
});
