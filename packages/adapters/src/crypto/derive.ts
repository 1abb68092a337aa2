import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';

// A pure-JS HMAC (audited @noble/hashes, already in the tree through web3.js) rather than
// node:crypto, so the same synchronous derivation runs on Node and on edge runtimes alike.

/**
 * A sub-key for one purpose (preview MAC, localnet seed, webhook signing), so the master key never
 * serves two algorithms directly. Every process that must agree on a sub-key calls this one function.
 */
export function deriveKey(master: Uint8Array, purpose: string): Uint8Array {
  return hmac(sha256, master, new TextEncoder().encode(`token-actions/${purpose}`));
}

/** HMAC-SHA256 of a UTF-8 label under `key`. */
export function hmacSha256(key: Uint8Array, label: string): Uint8Array {
  return hmac(sha256, key, new TextEncoder().encode(label));
}
