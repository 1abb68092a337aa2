import type { RateLimitDecision } from '../ports/rate-limit.js';

/**
 * Fixed-window request counting with the window anchored at a key's first hit: the rule every
 * rate limiter of the service follows (the Redis adapter runs the same rule as a script).
 * Synchronous, so a single process counts exactly.
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private nextSweep = 0;

  hit(key: string, limit: number, windowMs: number, now: number): RateLimitDecision {
    this.sweep(now);
    let window = this.current(key, now);
    if (!window) {
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return {
      allowed: window.count <= limit,
      limit,
      remaining: Math.max(0, limit - window.count),
      resetMs: window.endsAt - now,
    };
  }

  /** Hits `key` took in its current window (0 when none or the window ended). */
  count(key: string, now: number): number {
    return this.current(key, now)?.count ?? 0;
  }

  clear(): void {
    this.windows.clear();
  }

  private current(key: string, now: number) {
    const window = this.windows.get(key);
    return window && window.endsAt > now ? window : undefined;
  }

  // Ended windows are dropped in bulk now and then, so a stream of one-off keys (addresses)
  // cannot grow the map without bound.
  private sweep(now: number) {
    if (now < this.nextSweep) return;
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    this.nextSweep = now + 10_000;
  }
}
