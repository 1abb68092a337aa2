import { encodeBase58 } from '@token-actions/core';

/** SHA-256 as lower-case hex; strings are hashed as UTF-8. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : Uint8Array.from(data);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

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
