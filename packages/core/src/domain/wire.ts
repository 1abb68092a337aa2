import { encodeBase58 } from './base58.js';
import type { Signature } from './public-key.js';

/** Solana's compact-u16 length prefix. */
export function encodeShortVec(n: number): Uint8Array {
  const out: number[] = [];
  let rest = n;
  for (;;) {
    let byte = rest & 0x7f;
    rest >>= 7;
    if (rest === 0) {
      out.push(byte);
      return Uint8Array.from(out);
    }
    byte |= 0x80;
    out.push(byte);
  }
}

/** A wire transaction: the signatures in signer order, then the message they sign. */
export function assembleTransaction(message: Uint8Array, signatures: readonly Uint8Array[]): Uint8Array {
  const prefix = encodeShortVec(signatures.length);
  const out = new Uint8Array(prefix.length + signatures.length * 64 + message.length);
  out.set(prefix, 0);
  signatures.forEach((sig, i) => {
    if (sig.length !== 64) throw new Error('a signature is 64 bytes');
    out.set(sig, prefix.length + i * 64);
  });
  out.set(message, prefix.length + signatures.length * 64);
  return out;
}

/** The transaction id is the first (fee payer's) signature. */
export function transactionIdOf(signatures: readonly Uint8Array[]): Signature {
  return encodeBase58(signatures[0]!) as Signature;
}

interface NodeBuffer {
  from(buffer: ArrayBufferLike, offset: number, length: number): { toString(encoding: 'base64'): string };
}
/** Node's Buffer where the runtime has one (Node, Bun, workerd with nodejs_compat): native base64. */
const nodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;

export function toBase64(bytes: Uint8Array): string {
  if (nodeBuffer) return nodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  }
  return btoa(binary);
}

export function fromBase64(value: string): Uint8Array | undefined {
  try {
    const binary = atob(value);
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(value: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) return undefined;
  const padded = value.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (value.length % 4)) % 4);
  return fromBase64(padded);
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
