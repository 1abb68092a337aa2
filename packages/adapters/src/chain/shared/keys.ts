import { PublicKey as Web3PublicKey } from '@solana/web3.js';
import { encodeBase58, Recent } from '@token-actions/core';

// web3.js decodes and encodes base58 in pure JS (base-x, tens of microseconds a key), and a
// request names the same few keys again and again: its wallet, the mints, the pool's vaults, the
// token programs. In a firm quote's profile the two were about 6% of the server's CPU.

const keys = new Recent<string, Web3PublicKey>(8_192);
const names = new WeakMap<Web3PublicKey, string>();

/**
 * The web3.js key of a base58 name the caller has already found well-formed; the same object for
 * a name seen recently. Nothing here mutates a web3.js key, so one object serves every caller.
 */
export function web3Key(name: string): Web3PublicKey {
  let key = keys.get(name);
  if (key === undefined) {
    key = new Web3PublicKey(name);
    keys.remember(name, key);
    names.set(key, name);
  }
  return key;
}

/**
 * A web3.js key's base58 name, worked out once per key object; a new object for a key named
 * before is named from core's encoder, which remembers names by their bytes.
 */
export function keyName(key: Web3PublicKey): string {
  let name = names.get(key);
  if (name === undefined) {
    name = encodeBase58(key.toBytes());
    names.set(key, name);
  }
  return name;
}
