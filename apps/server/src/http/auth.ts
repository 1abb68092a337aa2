import {
  type ApiKeyRecord,
  type ErrorCode,
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

/** Answers a refused request in the shape of the transport it is for (payments: `{message, code}`). */
export type Refuse = (
  c: Context,
  status: ContentfulStatusCode,
  code: ErrorCode,
  message: string,
  headers?: Record<string, string>,
) => Response;

const SEND_IT = 'send Authorization: Bearer <api key>';
/** A scheme name worth repeating back: a short token, so a key pasted in its place is never echoed. */
const SCHEME = /^[A-Za-z][A-Za-z0-9-]{0,19}$/;

/**
 * The API key of an `Authorization` header, or what is wrong with the header, in words that never
 * repeat the credential. The scheme is case-insensitive (RFC 9110 section 11.1); exactly one
 * space separates it from the key, as the header has always been read here.
 */
export function readApiKey(
  authorization: string | undefined,
  apiKeyHeader: string | undefined,
): { key: string } | { problem: string } {
  if (authorization === undefined || authorization.trim() === '') {
    return apiKeyHeader !== undefined
      ? { problem: `the API key was sent in X-API-Key, which is not read: ${SEND_IT}` }
      : { problem: `missing API key: ${SEND_IT}` };
  }
  const header = authorization.trim();
  const scheme = /^\S+/.exec(header)![0];
  const rest = header.slice(scheme.length);
  if (scheme.toLowerCase() !== 'bearer') {
    if (rest === '') return { problem: `the Bearer scheme is missing before the API key: ${SEND_IT}` };
    return {
      problem: SCHEME.test(scheme)
        ? `Authorization uses the ${scheme} scheme, not Bearer: ${SEND_IT}`
        : `Authorization does not start with Bearer: ${SEND_IT}`,
    };
  }
  if (rest === '') return { problem: `Authorization: Bearer carries no API key: ${SEND_IT}` };
  if (!rest.startsWith(' ') || /^ \s/.test(rest)) {
    return { problem: `Authorization needs exactly one space between Bearer and the API key: ${SEND_IT}` };
  }
  const key = rest.slice(1);
  if (/\s/.test(key))
    return { problem: `Authorization carries more than one value after Bearer: ${SEND_IT}` };
  if (!/^[\x21-\x7e]{1,256}$/.test(key)) {
    return { problem: 'the API key in Authorization is malformed: at most 256 printable ASCII characters' };
  }
  return { key };
}

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
    refuse(c, 401, 'UNAUTHORIZED', 'invalid API key', { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
  return async (c, next) => {
    const read = readApiKey(c.req.header('authorization'), c.req.header('x-api-key'));
    if ('problem' in read) {
      return refuse(c, 401, 'UNAUTHORIZED', read.problem, { 'WWW-Authenticate': 'Bearer' });
    }
    const found = await store.apiKeys.findByHash(hashSecret(read.key));
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
