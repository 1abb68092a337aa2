import { FixedWindowCounter, type RateLimiterPort } from '@token-actions/core';
import { okAsync } from 'neverthrow';

export interface MemoryRateLimiterOptions {
  /** Milliseconds since the epoch; injectable so tests can cross a window without waiting. */
  now?: () => number;
}

/**
 * Fixed window anchored at a key's first hit, for one process (the embedded default). Exact within
 * the process because counting never awaits between reading and writing a counter.
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions = {}): RateLimiterPort {
  const now = options.now ?? Date.now;
  const counter = new FixedWindowCounter();
  return { hit: (key, limit, windowMs) => okAsync(counter.hit(key, limit, windowMs, now())) };
}
