import { type IdempotencyStore, sha256Hex } from '@token-actions/core';
import type { MiddlewareHandler } from 'hono';
import type { AuthVariables, Refuse } from './auth.js';
import { DomainHttpError } from './errors.js';

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on POST, with Stripe's rules: the first response to a key is kept (24 h)
 * and replayed for the same body; a different body under the same key is a 409; a key whose
 * first request is still running is a 409 too. 5xx answers are not kept, so the caller can retry.
 */
export function idempotency(
  store: IdempotencyStore,
  now: () => Date,
  refuse: Refuse,
): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (c.req.method !== 'POST' || key === undefined) return next();
    if (!KEY.test(key)) {
      return refuse(c, 400, 'INVALID_INPUT', 'Idempotency-Key must be 1-255 printable ASCII characters');
    }
    // Through Hono's body cache: the duplicate-key check may already have read the body.
    const body = new Uint8Array(await c.req.arrayBuffer());
    const prefix = new TextEncoder().encode(`${c.req.method} ${c.req.path}\n`);
    const joined = new Uint8Array(prefix.length + body.length);
    joined.set(prefix);
    joined.set(body, prefix.length);
    const requestHash = await sha256Hex(joined);
    // Keys belong to the tenant, not to one API key: a retry with a rotated key still replays.
    const scope = c.get('tenant')?.id ?? 'anonymous';

    const begun = await store.begin(scope, key, requestHash, now());
    if (begun.isErr()) throw new DomainHttpError(begun.error);
    const state = begun.value;
    if (state.state === 'mismatch') {
      return refuse(
        c,
        409,
        'IDEMPOTENCY_KEY_REUSED',
        'Idempotency-Key was already used with a different request body or path',
      );
    }
    if (state.state === 'in_progress') {
      return refuse(
        c,
        409,
        'IDEMPOTENCY_IN_PROGRESS',
        'a request with this Idempotency-Key is still in progress; retry shortly',
      );
    }
    if (state.state === 'completed') {
      return new Response(state.body, {
        status: state.status,
        headers: { 'content-type': 'application/json', 'idempotent-replayed': 'true' },
      });
    }
    c.set('requestKey', `${scope}:${key}`);
    try {
      await next();
    } catch (error) {
      await store.release(scope, key);
      throw error;
    }
    const res = c.res;
    if (res.status >= 500) {
      await store.release(scope, key);
      return;
    }
    const text = await res.clone().text();
    await store.complete(scope, key, res.status, text);
  };
}
