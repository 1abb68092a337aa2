import type { MacPort } from '@token-actions/core';

/** HMAC-SHA256 (WebCrypto). `verify` compares in constant time. */
export function createHmacMac(key: Uint8Array): MacPort {
  if (key.length < 32) throw new Error('a MAC key must be at least 32 bytes');
  const imported = crypto.subtle.importKey('raw', copy(key), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  return {
    async sign(data) {
      return new Uint8Array(await crypto.subtle.sign('HMAC', await imported, copy(data)));
    },
    async verify(data, tag) {
      return crypto.subtle.verify('HMAC', await imported, copy(tag), copy(data));
    },
  };
}

function copy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(bytes.length);
  out.set(bytes);
  return out;
}
