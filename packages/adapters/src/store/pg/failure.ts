import { type DomainError, domainError } from '@token-actions/core';
import { ResultAsync } from 'neverthrow';

/** SQLSTATE of a driver error, when it has one (both drivers put it on `code`). */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/**
 * Driver errors carry the statement, its parameters (hashes, ciphertext) and row values in their
 * details, so none of it is kept: only the operation's name and the SQLSTATE reach the error.
 */
export function storeFailure(operation: string) {
  return (error: unknown): DomainError =>
    domainError('STORE_UNAVAILABLE', `the store could not complete ${operation}`, {
      context: { operation, ...(sqlState(error) ? { sqlState: sqlState(error) } : {}) },
    });
}

export function attempt<T>(operation: string, run: () => Promise<T>): ResultAsync<T, DomainError> {
  return ResultAsync.fromPromise((async () => run())(), storeFailure(operation));
}
