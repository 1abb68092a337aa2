import { base58 } from '@scure/base';
import { Recent } from './recent.js';

/** Decodes base58 or returns undefined: never throws on hostile input. */
export function decodeBase58(value: string): Uint8Array | undefined {
  if (value.length === 0 || value.length > 128) return undefined;
  try {
    return base58.decode(value);
  } catch {
    return undefined;
  }
}

/** One char a byte: a cheap, exact map key for a key's bytes. */
export function bytesKey(bytes: Uint8Array): string {
  return String.fromCharCode.apply(null, bytes as unknown as number[]);
}

/** The base58 names of the 32-byte keys met lately, by their `bytesKey`. */
const keyNames = new Recent<string, string>(8_192);

/**
 * Base58 of `bytes`. A public key's name is remembered: base58 costs a division per byte per digit
 * (and its garbage), and a request names the same few keys several times over (fee payer,
 * programs, treasury), as every request before it did. Signatures are new each time: encoded as is.
 */
export function encodeBase58(bytes: Uint8Array): string {
  if (bytes.length !== 32) return base58.encode(bytes);
  const id = bytesKey(bytes);
  let name = keyNames.get(id);
  if (name === undefined) {
    name = base58.encode(bytes);
    keyNames.remember(id, name);
  }
  return name;
}
