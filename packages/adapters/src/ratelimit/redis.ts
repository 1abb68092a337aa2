import { fromPortFailure, type RateLimiterPort } from '@token-actions/core';
import { ResultAsync } from 'neverthrow';

/** The one Redis call the limiter makes; an `ioredis` client satisfies it. */
export interface RedisScriptClient {
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

export interface RedisRateLimiterOptions {
  /** Prepended to every key, so several deployments (or test runs) can share one Redis. */
  prefix?: string;
}

// Count and expiry are decided in one script, which Redis runs without interleaving any other
// command: every process sharing the Redis sees one sequence of counts per key.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

/** Fixed window anchored at a key's first hit, exact across every process sharing the Redis. */
export function createRedisRateLimiter(
  redis: RedisScriptClient,
  options: RedisRateLimiterOptions = {},
): RateLimiterPort {
  const prefix = options.prefix ?? 'ratelimit:';
  return {
    hit(key, limit, windowMs) {
      return ResultAsync.fromPromise(
        redis.eval(HIT_SCRIPT, 1, prefix + key, Math.max(1, Math.ceil(windowMs))),
        fromPortFailure('STORE_UNAVAILABLE', 'rate limiter'),
      ).map((reply) => {
        const [count, ttl] = (reply as [number | string, number | string]).map(Number) as [number, number];
        return {
          allowed: count <= limit,
          limit,
          remaining: Math.max(0, limit - count),
          resetMs: Math.max(0, ttl),
        };
      });
    },
  };
}
