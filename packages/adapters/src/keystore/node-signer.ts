import { KeyObject, sign } from 'node:crypto';
import type { KeySigner } from './encrypted.js';

/**
 * The keystore's signatures with Node's own Ed25519, synchronously on the calling thread: about
 * 20 µs, where `subtle.sign` costs a thread-pool job, its hand-offs and a promise per signature:
 * that job's promise was the largest frame of the server's CPU profile under donations. The
 * unsealed key stays a non-extractable CryptoKey; its KeyObject view is kept only as long as the
 * keystore holds that CryptoKey.
 */
export function nodeKeySigner(): KeySigner {
  const views = new WeakMap<CryptoKey, KeyObject>();
  return (key, message) => {
    let view = views.get(key);
    if (!view) {
      view = KeyObject.from(key);
      views.set(key, view);
    }
    return new Uint8Array(sign(null, message, view));
  };
}
