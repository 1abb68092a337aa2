import type { RateLimiterPort } from '@token-actions/core';
import { okAsync } from 'neverthrow';

export interface MemoryRateLimiterOptions {
  /** Milliseconds since the epoch; injectable so tests can cross a window without waiting. */
  now?: () => number;
}

/**
 * Fixed window anchored at a key's first hit, for one process (the embedded default). Exact within
 * the process because `hit` never awaits between reading and writing a counter.
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions = {}): RateLimiterPort {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { count: number; endsAt: number }>();
  let nextSweep = 0;

  // Ended windows are dropped in bulk now and then, so a stream of one-off addresses cannot grow
  // the map without bound.
  function sweep(at: number) {
    if (at < nextSweep) return;
    for (const [key, window] of windows) if (window.endsAt <= at) windows.delete(key);
    nextSweep = at + 10_000;
  }

  return {
    hit(key, limit, windowMs) {
      const at = now();
      sweep(at);
      let window = windows.get(key);
      if (!window || window.endsAt <= at) {
        window = { count: 0, endsAt: at + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return okAsync({
        allowed: window.count <= limit,
        limit,
        remaining: Math.max(0, limit - window.count),
        resetMs: window.endsAt - at,
      });
    },
  };
}
