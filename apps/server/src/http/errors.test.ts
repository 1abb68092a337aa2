import { ERROR_CODES } from '@token-actions/core';
import { describe, expect, it } from 'vitest';
import { statusOf } from './errors.js';

describe('statusOf', () => {
  it('gives every error code a status', () => {
    for (const code of ERROR_CODES) expect(statusOf(code)).toBeGreaterThanOrEqual(400);
  });

  it('answers the bearer and rate-limit codes with their RFC 6750 / RFC 6585 statuses, not 500', () => {
    expect(statusOf('INVALID_TOKEN')).toBe(401);
    expect(statusOf('INSUFFICIENT_SCOPE')).toBe(403);
    expect(statusOf('RATE_LIMITED')).toBe(429);
  });
});
