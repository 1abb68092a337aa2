import { decodeBase58 } from './base58.js';

/** Just enough of Solana's transaction wire format to route, dedupe and account for a transaction
 * before a runtime sees it (LiteSVM's native decoder aborts the process on malformed input).
 * Throws on malformed input; callers turn that into INVALID_INPUT. */

export interface ParsedInstruction {
  readonly programIndex: number;
  readonly accountIndexes: Uint8Array;
  readonly data: Uint8Array;
}

export interface AddressTableLookup {
  readonly accountKey: Uint8Array;
  readonly writableIndexes: Uint8Array;
  readonly readonlyIndexes: Uint8Array;
}

export interface ParsedMessage {
  readonly version: 'legacy' | 0;
  readonly numRequiredSignatures: number;
  readonly numReadonlySigned: number;
  readonly numReadonlyUnsigned: number;
  readonly accountKeys: readonly Uint8Array[];
  readonly recentBlockhash: Uint8Array;
  readonly instructions: readonly ParsedInstruction[];
  /** v0 only: accounts loaded from address lookup tables (writable ones first once resolved). */
  readonly lookups: readonly AddressTableLookup[];
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

  /** Solana's compact-u16, as strictly as the runtime reads it: no alias encodings, at most 0xffff. */
  shortVec(): number {
    let value = 0;
    for (let i = 0; i < 3; i++) {
      const byte = this.u8();
      if (i > 0 && byte === 0) throw new Error('malformed length prefix');
      value |= (byte & 0x7f) << (7 * i);
      if ((byte & 0x80) === 0) {
        if (value > 0xffff) throw new Error('malformed length prefix');
        return value;
      }
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
  let version: 'legacy' | 0 = 'legacy';
  if (first & 0x80) {
    // Versioned message: only v0 exists; it is the legacy layout plus address table lookups.
    if ((first & 0x7f) !== 0) throw new Error(`unsupported transaction version ${first & 0x7f}`);
    version = 0;
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
  const lookups: AddressTableLookup[] = [];
  if (version === 0) {
    const lookupCount = reader.shortVec();
    for (let i = 0; i < lookupCount; i++) {
      const accountKey = reader.take(32);
      const writableIndexes = reader.take(reader.shortVec());
      const readonlyIndexes = reader.take(reader.shortVec());
      lookups.push({ accountKey, writableIndexes, readonlyIndexes });
    }
  }
  if (reader.remaining !== 0) throw new Error('trailing bytes after the message');
  if (numRequiredSignatures === 0 || numRequiredSignatures > keyCount)
    throw new Error('malformed message header');
  const loaded = lookups.reduce((n, l) => n + l.writableIndexes.length + l.readonlyIndexes.length, 0);
  for (const ix of instructions) {
    if (ix.programIndex >= keyCount + loaded) throw new Error('instruction names an account out of range');
    for (const index of ix.accountIndexes) {
      if (index >= keyCount + loaded) throw new Error('instruction names an account out of range');
    }
  }
  return {
    version,
    numRequiredSignatures,
    numReadonlySigned,
    numReadonlyUnsigned,
    accountKeys,
    recentBlockhash,
    instructions,
    lookups,
  };
}

/** Largest transaction the network carries (one packet). */
export const MAX_WIRE_BYTES = 1232;

/** Parses wire bytes, refusing everything the runtime's own decoder would refuse: LiteSVM's native
 * decoder aborts the whole process on malformed input instead of returning an error. */
export function parseTransaction(wire: Uint8Array): ParsedTransaction {
  if (wire.length > MAX_WIRE_BYTES) {
    throw new Error(`transaction is ${wire.length} bytes, more than the ${MAX_WIRE_BYTES} allowed`);
  }
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
const SET_COMPUTE_UNIT_LIMIT = 2;
const SET_COMPUTE_UNIT_PRICE = 3;
/** The runtime's default limit per instruction that is not a compute-budget one, and the cap. */
const DEFAULT_INSTRUCTION_UNITS = 200_000;
const MAX_UNITS = 1_400_000;

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

/** The compute-unit limit a message requests, or the runtime's default for it. */
export function computeUnitLimitOf(message: ParsedMessage): number {
  let others = 0;
  for (const ix of message.instructions) {
    const program = message.accountKeys[ix.programIndex];
    if (!program || !sameKey(program, COMPUTE_BUDGET_PROGRAM)) {
      others++;
      continue;
    }
    if (ix.data.length === 5 && ix.data[0] === SET_COMPUTE_UNIT_LIMIT) {
      const units = new DataView(ix.data.buffer, ix.data.byteOffset + 1, 4).getUint32(0, true);
      return Math.min(units, MAX_UNITS);
    }
  }
  return Math.min(others * DEFAULT_INSTRUCTION_UNITS, MAX_UNITS);
}

/** Base fee (5,000 lamports a signature) plus the priority fee the message bids, rounded up. */
export function feeOf(message: ParsedMessage): bigint {
  const price = computeUnitPriceOf(message);
  const units = BigInt(computeUnitLimitOf(message));
  return 5_000n * BigInt(message.numRequiredSignatures) + (price * units + 999_999n) / 1_000_000n;
}

export function isZero(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 0) return false;
  return true;
}
