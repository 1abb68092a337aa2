import { okAsync } from 'neverthrow';
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
  const windows = new Map<string, { count: number; endsAt: number }>();

  function current(key: string, now: number) {
    const window = windows.get(key);
    return window && window.endsAt > now ? window : undefined;
  }

  return {
    hit(key, limit, windowMs) {
      const now = clock.now().getTime();
      let window = current(key, now);
      if (!window) {
        window = { count: 0, endsAt: now + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return okAsync({
        allowed: window.count <= limit,
        limit,
        remaining: Math.max(0, limit - window.count),
        resetMs: window.endsAt - now,
      });
    },
    count(key) {
      return current(key, clock.now().getTime())?.count ?? 0;
    },
    reset() {
      windows.clear();
    },
  };
}
