import {
  type ApiKeyRecord,
  hashSecret,
  isApiKeyActive,
  type StorePort,
  type Tenant,
} from '@token-actions/core';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainHttpError } from './errors.js';

const TOUCH_INTERVAL_MS = 60_000;

export type AuthVariables = {
  apiKey: ApiKeyRecord;
  /** The key's tenant: whatever the request creates belongs to it, and it sees nothing else. */
  tenant: Tenant;
  /** The scoped Idempotency-Key of this request, when it has one. */
  requestKey?: string;
};

/** Answers a refused request in the shape of the transport it is for (payments: `{message}`). */
export type Refuse = (
  c: Context,
  status: ContentfulStatusCode,
  message: string,
  headers?: Record<string, string>,
) => Response;

/**
 * Interface A (payments) authentication: `Authorization: Bearer <api key>`. Keys are stored as SHA-256
 * hashes; the store the server composes serves verified keys from memory for at most a second and
 * drops a revoked one at once (adapters' `withApiKeyCache`). A revoked or expired key is refused
 * like an unknown one.
 */
export function apiKeyAuth(
  store: Pick<StorePort, 'apiKeys' | 'tenants'>,
  now: () => Date,
  refuse: Refuse,
): MiddlewareHandler<{ Variables: AuthVariables }> {
  // When this process last recorded each key's use: the cached record's lastUsedAt lags the
  // store's by up to the cache TTL, and a busy key must not turn that second into a write each.
  const touched = new Map<string, number>();
  const invalid = (c: Context) =>
    refuse(c, 401, 'invalid API key', { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
  return async (c, next) => {
    const header = c.req.header('authorization');
    // The auth scheme is case-insensitive (RFC 9110 section 11.1).
    const match = header ? /^Bearer ([\x21-\x7e]{1,256})$/i.exec(header) : null;
    if (!match) {
      return refuse(c, 401, 'missing API key: send Authorization: Bearer <api key>', {
        'WWW-Authenticate': 'Bearer',
      });
    }
    const found = await store.apiKeys.findByHash(hashSecret(match[1]!));
    if (found.isErr()) throw new DomainHttpError(found.error);
    const at = now();
    const key = found.value;
    if (!key || !isApiKeyActive(key, at)) return invalid(c);
    const tenant = await store.tenants.get(key.tenant);
    if (tenant.isErr()) throw new DomainHttpError(tenant.error);
    if (!tenant.value) return invalid(c);
    // Last use is bookkeeping: the store writes it at most once a minute, and a failure to write
    // it must not fail the request.
    const last = Math.max(key.lastUsedAt?.getTime() ?? 0, touched.get(key.id) ?? 0);
    if (last <= at.getTime() - TOUCH_INTERVAL_MS) {
      if (touched.size >= 10_000) touched.clear();
      touched.set(key.id, at.getTime());
      void store.apiKeys.touch(key.id, at);
    }
    c.set('apiKey', key);
    c.set('tenant', { id: tenant.value.id, treasuryPayments: tenant.value.treasuryPayments });
    await next();
  };
}
