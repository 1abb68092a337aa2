import { err, ok, type Result } from 'neverthrow';
import { encodeBase58 } from '../../domain/base58.js';
import { type DomainError, domainError } from '../../errors.js';
import type { ChainIntent } from '../../ports/chain.js';

export const MESSAGE_TAG = 'fake-chain/1';

/** An intent as the fake's message carries it: keys and amounts as strings, currencies by key. */
export interface WireIntent {
  readonly kind: ChainIntent['kind'];
  readonly currencyKey?: string;
  readonly from?: string;
  readonly to?: string;
  readonly amount?: string;
  readonly authority?: string;
  readonly owner?: string;
  readonly name?: string;
  readonly symbol?: string;
  readonly uri?: string;
  readonly legs?: readonly { currencyKey: string; from: string; to: string; amount: string }[];
}

export interface FakeMessage {
  readonly tag: typeof MESSAGE_TAG;
  readonly nonce: number;
  readonly blockhash: string;
  readonly feePayer: string;
  readonly signers: readonly string[];
  readonly computeUnitPrice: string;
  readonly computeUnitLimit: number;
  readonly feeLamports: string;
  readonly writableAccounts: readonly string[];
  readonly mint?: string;
  readonly intent: WireIntent;
}

function decodeShortVec(bytes: Uint8Array): { value: number; size: number } | undefined {
  let value = 0;
  for (let i = 0; i < 3 && i < bytes.length; i++) {
    const byte = bytes[i]!;
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) return { value, size: i + 1 };
  }
  return undefined;
}

/** Reads a wire transaction (shortvec count, 64-byte signatures, message) back into its message. */
export function parseWire(wire: Uint8Array): Result<{ id: string; message: FakeMessage }, DomainError> {
  const malformed = (why: string) => err(domainError('INVALID_INPUT', `malformed transaction: ${why}`));
  if (!(wire instanceof Uint8Array)) return malformed('not bytes');
  const count = decodeShortVec(wire);
  if (!count || count.value === 0) return malformed('no signatures');
  const messageStart = count.size + 64 * count.value;
  if (wire.length <= messageStart) return malformed('truncated');
  let message: FakeMessage;
  try {
    message = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(wire.subarray(messageStart)),
    ) as FakeMessage;
  } catch {
    return malformed('not a message of this chain');
  }
  if (message?.tag !== MESSAGE_TAG || !Array.isArray(message.signers))
    return malformed('not a message of this chain');
  if (message.signers.length !== count.value) {
    return malformed(`${count.value} signatures for ${message.signers.length} signers`);
  }
  for (let i = 0; i < count.value; i++) {
    const signature = wire.subarray(count.size + 64 * i, count.size + 64 * (i + 1));
    if (signature.every((b) => b === 0))
      return err(domainError('INVALID_INPUT', 'transaction is missing a signature'));
  }
  return ok({ id: encodeBase58(wire.subarray(count.size, count.size + 64)), message });
}
