// Parsing only, apart from the file loader in master-key.ts: an edge runtime takes the key from a
// binding and must not reach node:fs.

export const MASTER_KEY_ENV = 'KEYSTORE_MASTER_KEY';

/** 64 hex digits, or standard/URL-safe base64 of exactly 32 bytes; anything else is undefined. */
export function parseMasterKey(text: string): Uint8Array | undefined {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return new Uint8Array(Buffer.from(value, 'hex'));
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(value)) {
    const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === 32) return new Uint8Array(bytes);
  }
  return undefined;
}
