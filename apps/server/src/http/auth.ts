import { type ApiKeyRecord, type ApiKeyStore, sha256Hex } from '@token-actions/core';
import type { MiddlewareHandler } from 'hono';

export const API_KEY_PREFIX = 'ta_';

export async function hashApiKey(key: string): Promise<string> {
  return sha256Hex(key);
}

export function generateApiKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `${API_KEY_PREFIX}${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export type AuthVariables = {
  apiKey: ApiKeyRecord;
  /** The scoped Idempotency-Key of this request, when it has one. */
  requestKey?: string;
};

/**
 * Interface A authentication: `Authorization: Bearer <api key>`. Keys are stored as SHA-256
 * hashes; a short-lived cache of verified keys keeps the hot path off the database.
 */
export function apiKeyAuth(
  store: ApiKeyStore,
  ttlMs = 30_000,
): MiddlewareHandler<{ Variables: AuthVariables }> {
  // Keyed by the presented key itself, so a cache hit costs no hashing; only keys the store
  // confirmed are kept, for ttlMs, and the map is bounded.
  const cache = new Map<string, { record: ApiKeyRecord; until: number }>();
  return async (c, next) => {
    const header = c.req.header('authorization');
    // The auth scheme is case-insensitive (RFC 9110 section 11.1).
    const match = header ? /^Bearer ([\x21-\x7e]{1,256})$/i.exec(header) : null;
    if (!match) {
      return c.json({ message: 'missing API key: send Authorization: Bearer <api key>' }, 401, {
        'WWW-Authenticate': 'Bearer',
      });
    }
    const key = match[1]!;
    const now = Date.now();
    let entry = cache.get(key);
    if (!entry || entry.until < now) {
      const found = await store.findByHash(await hashApiKey(key));
      if (found.isErr()) throw found.error;
      if (!found.value) {
        return c.json({ message: 'invalid API key' }, 401, {
          'WWW-Authenticate': 'Bearer error="invalid_token"',
        });
      }
      entry = { record: found.value, until: now + ttlMs };
      if (cache.size > 1_000) cache.clear();
      cache.set(key, entry);
    }
    c.set('apiKey', entry.record);
    await next();
  };
}
