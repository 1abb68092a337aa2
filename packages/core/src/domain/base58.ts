import { base58 } from '@scure/base';

/** Decodes base58 or returns undefined: never throws on hostile input. */
export function decodeBase58(value: string): Uint8Array | undefined {
  if (value.length === 0 || value.length > 128) return undefined;
  try {
    return base58.decode(value);
  } catch {
    return undefined;
  }
}

export function encodeBase58(bytes: Uint8Array): string {
  return base58.encode(bytes);
}
