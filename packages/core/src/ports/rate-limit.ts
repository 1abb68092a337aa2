import type { ResultAsync } from 'neverthrow';
import type { DomainError } from '../errors.js';

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  /** Requests left in the current window after this one; 0 once spent. */
  readonly remaining: number;
  /** Milliseconds until the current window ends and the count starts again. */
  readonly resetMs: number;
}

/**
 * A fixed-window counter. `hit` counts one request against `key` and decides in one atomic step,
 * so N concurrent callers sharing a backend are admitted at most `limit` times per window.
 */
export interface RateLimiterPort {
  hit(key: string, limit: number, windowMs: number): ResultAsync<RateLimitDecision, DomainError>;
}
