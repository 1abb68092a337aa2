import { decodeBase58 } from '@token-actions/core';

/** Just enough of Solana's transaction wire format to route, dedupe and account for a transaction
 * before LiteSVM sees it. Throws on malformed input; callers turn that into INVALID_INPUT. */

export interface ParsedInstruction {
  readonly programIndex: number;
  readonly accountIndexes: Uint8Array;
  readonly data: Uint8Array;
}

export interface ParsedMessage {
  readonly numRequiredSignatures: number;
  readonly numReadonlySigned: number;
  readonly numReadonlyUnsigned: number;
  readonly accountKeys: readonly Uint8Array[];
  readonly recentBlockhash: Uint8Array;
  readonly instructions: readonly ParsedInstruction[];
}

export interface ParsedTransaction {
  readonly signatures: readonly Uint8Array[];
  readonly message: ParsedMessage;
}

class Reader {
  offset = 0;
  constructor(private readonly bytes: Uint8Array) {}

  u8(): number {
    if (this.offset >= this.bytes.length) throw new Error('truncated transaction');
    return this.bytes[this.offset++]!;
  }

  shortVec(): number {
    let value = 0;
    for (let shift = 0; shift < 21; shift += 7) {
      const byte = this.u8();
      value |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new Error('malformed length prefix');
  }

  take(length: number): Uint8Array {
    if (this.offset + length > this.bytes.length) throw new Error('truncated transaction');
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }
}

export function parseMessage(bytes: Uint8Array): ParsedMessage {
  const reader = new Reader(bytes);
  let first = reader.u8();
  if (first & 0x80) {
    // Versioned message: only v0 shares the legacy layout (plus lookups, which are ignored here).
    if ((first & 0x7f) !== 0) throw new Error(`unsupported transaction version ${first & 0x7f}`);
    first = reader.u8();
  }
  const numRequiredSignatures = first;
  const numReadonlySigned = reader.u8();
  const numReadonlyUnsigned = reader.u8();
  const keyCount = reader.shortVec();
  const accountKeys: Uint8Array[] = [];
  for (let i = 0; i < keyCount; i++) accountKeys.push(reader.take(32));
  const recentBlockhash = reader.take(32);
  const instructionCount = reader.shortVec();
  const instructions: ParsedInstruction[] = [];
  for (let i = 0; i < instructionCount; i++) {
    const programIndex = reader.u8();
    const accountIndexes = reader.take(reader.shortVec());
    const data = reader.take(reader.shortVec());
    instructions.push({ programIndex, accountIndexes, data });
  }
  if (numRequiredSignatures === 0 || numRequiredSignatures > keyCount)
    throw new Error('malformed message header');
  return {
    numRequiredSignatures,
    numReadonlySigned,
    numReadonlyUnsigned,
    accountKeys,
    recentBlockhash,
    instructions,
  };
}

export function parseTransaction(wire: Uint8Array): ParsedTransaction {
  const reader = new Reader(wire);
  const count = reader.shortVec();
  if (count === 0) throw new Error('transaction has no signatures');
  const signatures: Uint8Array[] = [];
  for (let i = 0; i < count; i++) signatures.push(reader.take(64));
  const message = parseMessage(reader.take(reader.remaining));
  if (message.numRequiredSignatures !== count) {
    throw new Error(
      `transaction carries ${count} signatures but its message requires ${message.numRequiredSignatures}`,
    );
  }
  return { signatures, message };
}

export function isWritable(message: ParsedMessage, index: number): boolean {
  const signed = message.numRequiredSignatures;
  if (index < signed) return index < signed - message.numReadonlySigned;
  return index < message.accountKeys.length - message.numReadonlyUnsigned;
}

export function writableKeys(message: ParsedMessage): Uint8Array[] {
  return message.accountKeys.filter((_, i) => isWritable(message, i));
}

const COMPUTE_BUDGET_PROGRAM = decodeBase58('ComputeBudget111111111111111111111111111111')!;
const SET_COMPUTE_UNIT_PRICE = 3;

function sameKey(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The micro-lamport price a message bids per compute unit (0 when it sets none). */
export function computeUnitPriceOf(message: ParsedMessage): bigint {
  for (const ix of message.instructions) {
    const program = message.accountKeys[ix.programIndex];
    if (!program || !sameKey(program, COMPUTE_BUDGET_PROGRAM)) continue;
    if (ix.data.length === 9 && ix.data[0] === SET_COMPUTE_UNIT_PRICE) {
      return new DataView(ix.data.buffer, ix.data.byteOffset + 1, 8).getBigUint64(0, true);
    }
  }
  return 0n;
}

export function isZero(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 0) return false;
  return true;
}
