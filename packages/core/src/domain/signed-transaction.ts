import { decodeBase58 } from './base58.js';
import { encodeShortVec } from './wire.js';

/** A wire transaction split into its signatures (signer order) and the message they sign. */
export interface WireParts {
  readonly signatures: readonly Uint8Array[];
  readonly message: Uint8Array;
}

function readShortVec(bytes: Uint8Array, at: number): { value: number; size: number } | undefined {
  let value = 0;
  for (let i = 0; i < 3 && at + i < bytes.length; i++) {
    const byte = bytes[at + i]!;
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) return { value, size: i + 1 };
  }
  return undefined;
}

/** Splits wire bytes; undefined for anything that is not `shortvec(n) || n*64 || message`. */
export function splitWireTransaction(wire: Uint8Array): WireParts | undefined {
  const count = readShortVec(wire, 0);
  if (!count || count.value === 0 || count.value > 64) return undefined;
  const start = count.size + 64 * count.value;
  if (wire.length <= start) return undefined;
  const signatures: Uint8Array[] = [];
  for (let i = 0; i < count.value; i++) {
    signatures.push(wire.slice(count.size + 64 * i, count.size + 64 * (i + 1)));
  }
  return { signatures, message: wire.slice(start) };
}

/** Prefix length of a wire transaction with `n` signatures (for callers that rebuild one). */
export function signaturePrefixLength(n: number): number {
  return encodeShortVec(n).length + 64 * n;
}

/**
 * The signers of a Solana message (legacy or v0): the first `numRequiredSignatures` account keys.
 * Undefined when the bytes are not a message.
 */
export function messageSigners(message: Uint8Array): Uint8Array[] | undefined {
  let at = 0;
  if (message.length < 4) return undefined;
  if ((message[0]! & 0x80) !== 0) {
    if ((message[0]! & 0x7f) !== 0) return undefined;
    at = 1;
  }
  const required = message[at]!;
  at += 3;
  const keys = readShortVec(message, at);
  if (!keys || keys.value < required) return undefined;
  at += keys.size;
  if (message.length < at + 32 * keys.value) return undefined;
  const out: Uint8Array[] = [];
  for (let i = 0; i < required; i++) out.push(message.slice(at + 32 * i, at + 32 * (i + 1)));
  return out;
}

/** Ed25519 check with the runtime's WebCrypto; false for a malformed key or signature. */
export async function verifyEd25519(
  publicKey: string,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  const raw = decodeBase58(publicKey);
  if (raw?.length !== 32 || signature.length !== 64) return false;
  try {
    const key = await crypto.subtle.importKey('raw', raw as BufferSource, { name: 'Ed25519' }, false, [
      'verify',
    ]);
    return await crypto.subtle.verify(
      { name: 'Ed25519' },
      key,
      signature as BufferSource,
      message as BufferSource,
    );
  } catch {
    return false;
  }
}
