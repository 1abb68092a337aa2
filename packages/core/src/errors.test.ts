import { describe, expect, it } from 'vitest';
import { domainError, fromPortFailure, isDomainError, isDomainErrorOf } from './errors.js';

describe('domain errors', () => {
  it('tells an error of one code from another, from a non-error, and keeps its context', () => {
    const failed = domainError('STORE_UNAVAILABLE', 'the store could not complete transactions.get', {
      context: { operation: 'transactions.get', sqlState: '42P01' },
    });
    expect(isDomainErrorOf(failed, 'STORE_UNAVAILABLE')).toBe(true);
    expect(isDomainErrorOf(failed, 'CHAIN_UNAVAILABLE')).toBe(false);
    expect(isDomainErrorOf({ code: 'STORE_UNAVAILABLE' }, 'STORE_UNAVAILABLE')).toBe(false);
    expect(isDomainErrorOf(new Error('STORE_UNAVAILABLE'), 'STORE_UNAVAILABLE')).toBe(false);
    if (!isDomainErrorOf(failed, 'STORE_UNAVAILABLE')) throw new Error('unreachable');
    expect(failed.context?.operation).toBe('transactions.get');
    expect(failed.context?.sqlState).toBe('42P01');
  });

  it('passes a domain error through a port failure and wraps anything else', () => {
    const known = domainError('CHAIN_UNAVAILABLE', 'rpc down');
    expect(fromPortFailure('STORE_UNAVAILABLE', 'read')(known)).toBe(known);
    const wrapped = fromPortFailure('STORE_UNAVAILABLE', 'read')(new Error('boom'));
    expect(isDomainError(wrapped)).toBe(true);
    expect(wrapped).toMatchObject({ code: 'STORE_UNAVAILABLE', message: 'read failed' });
    expect(isDomainError({ code: 'NOT_A_CODE', message: 'x' })).toBe(false);
  });
});
