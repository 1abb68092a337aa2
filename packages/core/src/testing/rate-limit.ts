import { okAsync } from 'neverthrow';
import { FixedWindowCounter } from '../domain/fixed-window.js';
import type { ClockPort } from '../ports/clock.js';
import type { RateLimiterPort } from '../ports/rate-limit.js';

export interface FakeRateLimiter extends RateLimiterPort {
  /** How many hits `key` took in its current window (0 when none or the window ended). */
  count(key: string): number;
  reset(): void;
}

/** Fixed window anchored at a key's first hit, read from `clock` so tests can cross a window
 * boundary without waiting. */
export function createFakeRateLimiter(clock: ClockPort = { now: () => new Date() }): FakeRateLimiter {
  const counter = new FixedWindowCounter();
  return {
    hit: (key, limit, windowMs) => okAsync(counter.hit(key, limit, windowMs, clock.now().getTime())),
    count: (key) => counter.count(key, clock.now().getTime()),
    reset: () => counter.clear(),
  };
}
