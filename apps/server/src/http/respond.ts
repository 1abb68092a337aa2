import type { ActionOptions, DomainError, Tenant } from '@token-actions/core';
import type { Result, ResultAsync } from 'neverthrow';
import { DomainHttpError } from './errors.js';

/**
 * The one way a route handler turns a use-case Result into its answer: the value, or a throw that
 * the one error handler renders in its transport's shape (payments `{message, code}`, swaps
 * `{code, message, rateLimit}`, ...). The handler itself only builds its documented success body.
 */
export async function unwrap<T>(result: ResultAsync<T, DomainError> | Result<T, DomainError>): Promise<T> {
  const settled = await result;
  if (settled.isErr()) throw new DomainHttpError(settled.error);
  return settled.value;
}

export const str = (v: bigint | number | undefined) => (v === undefined ? undefined : v.toString());

/**
 * The use-case options a request carries: the caller's tenant (set by the API-key middleware) and
 * its scoped idempotency key (set by the idempotency middleware).
 */
export function actionOptions(c: {
  get(key: 'tenant'): Tenant;
  get(key: 'requestKey'): string | undefined;
}): ActionOptions {
  const requestKey = c.get('requestKey');
  return { tenant: c.get('tenant'), ...(requestKey ? { requestKey } : {}) };
}
