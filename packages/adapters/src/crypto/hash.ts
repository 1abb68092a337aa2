import { encodeBase58 } from '@token-actions/core';

// The one SHA-256-to-hex lives in core; re-exported here for the adapters' existing callers.
export { sha256Hex } from '@token-actions/core';

/**
 * `<prefix>_<base58 of random bytes>`: a bearer secret (API key, token) whose prefix says what it
 * is at a glance, e.g. in a secret scanner; base58 keeps it URL-safe and double-click selectable.
 */
export function randomToken(prefix: string, bytes = 32): string {
  if (!Number.isInteger(bytes) || bytes < 16 || bytes > 1024)
    throw new Error('a token needs 16 to 1024 random bytes');
  const body = encodeBase58(crypto.getRandomValues(new Uint8Array(bytes)));
  return prefix ? `${prefix}_${body}` : body;
}
