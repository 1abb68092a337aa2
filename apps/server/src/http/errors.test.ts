import { ERROR_CODES } from '@token-actions/core';
import { describe, expect, it } from 'vitest';
import { statusOf } from './errors.js';

describe('statusOf', () => {
  it('answers 5xx only for failures of the service and its dependencies', () => {
    // The error handler logs a 5xx and replaces its message (it may carry internals; only the
    // swaps show the aggregator's 502): a caller's mistake mapped to 5xx would lose its
    // explanation, and a dependency failure mapped below 500 would show its internals.
    const serverSide = ERROR_CODES.filter((code) => statusOf(code) >= 500);
    expect(serverSide.sort()).toEqual([
      'AGGREGATOR_UNAVAILABLE',
      'CHAIN_UNAVAILABLE',
      'INTERNAL',
      'STORE_UNAVAILABLE',
    ]);
  });

  it('answers the bearer and rate-limit codes with their RFC 6750 / RFC 6585 statuses, not 500', () => {
    expect(statusOf('INVALID_TOKEN')).toBe(401);
    expect(statusOf('INSUFFICIENT_SCOPE')).toBe(403);
    expect(statusOf('RATE_LIMITED')).toBe(429);
  });
});
