import type { DomainError } from '@token-actions/core';
import type { Result, ResultAsync } from 'neverthrow';
import { DomainHttpError } from './errors.js';

/** Unwraps a use-case result at the edge: the error goes to the one error mapper via onError. */
export async function unwrap<T>(result: ResultAsync<T, DomainError> | Result<T, DomainError>): Promise<T> {
  const settled = await result;
  if (settled.isErr()) throw new DomainHttpError(settled.error);
  return settled.value;
}

export const str = (v: bigint | number | undefined) => (v === undefined ? undefined : v.toString());

/** The use-case options a request carries: its scoped idempotency key, set by the idempotency middleware. */
export function actionOptions(c: { get(key: 'requestKey'): string | undefined }): { requestKey?: string } {
  const requestKey = c.get('requestKey');
  return requestKey ? { requestKey } : {};
}
