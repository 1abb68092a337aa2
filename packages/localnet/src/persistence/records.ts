import { crc32 } from 'node:zlib';

/** Where a record can be read back from: its file, byte offset and length (without the newline). */
export interface RecordLocation {
  readonly file: 'snapshot' | 'journal';
  readonly offset: number;
  readonly length: number;
}

export const JOURNAL_FORMAT = 1;

/** One line of the journal or snapshot. Numbers that may exceed 2^53 travel as decimal strings. */
export type JournalRecord =
  | {
      readonly t: 'head';
      readonly v: number;
      /** The localnet's genesis hash: a directory belongs to one seed. */
      readonly genesis: string;
      readonly firstSlot: string;
      /** Generation of the journal that follows this snapshot. */
      readonly gen: number;
      /** Transactions landed before this snapshot (its own records are not counted again). */
      readonly txCount?: string;
    }
  | { readonly t: 'slot'; readonly s: string }
  | { readonly t: 'bh'; readonly h: string; readonly s: string }
  | { readonly t: 'acct'; readonly a: readonly StoredAccountJson[]; readonly x?: readonly string[] }
  | { readonly t: 'nft'; readonly o: readonly (readonly [string, string])[] }
  | TxRecordJson;

/** [address, lamports, owner, executable (0/1), data as base64] */
export type StoredAccountJson = readonly [string, string, string, 0 | 1, string];

export interface TxRecordJson {
  readonly t: 'tx';
  /** The signed transaction, base64. */
  readonly w: string;
  readonly s: string;
  /** Last valid block height of its blockhash. */
  readonly v: string;
  /** Block time, unix seconds. */
  readonly bt: number;
  readonly f: string;
  readonly cu: string;
  readonly e?: unknown;
  readonly m?: string;
  readonly l?: readonly string[];
  readonly pre?: readonly string[];
  readonly post?: readonly string[];
  /** Accounts the transaction wrote, as they were after it. */
  readonly a?: readonly StoredAccountJson[];
  /** Accounts it closed. */
  readonly x?: readonly string[];
  /** NFTs it minted: [mint, owner]. */
  readonly o?: readonly (readonly [string, string])[];
  /** Token balances before and after it, when it named a token program. */
  readonly tb?: readonly [readonly TokenBalanceJson[], readonly TokenBalanceJson[]];
  /** Inner instructions, when its programs invoked any. */
  readonly ii?: readonly InnerInstructionsJson[];
}

/** [accountIndex, mint, owner, programId, amount, decimals]: one token balance of a transaction. */
export type TokenBalanceJson = readonly [number, string, string, string, string, number];
/** [index, [[programIdIndex, accounts, data (base64), stackHeight]]]: one instruction's inner instructions. */
export type InnerInstructionsJson = readonly [
  number,
  readonly (readonly [number, readonly number[], string, number | null])[],
];

export function encodeLine(record: JournalRecord): Buffer {
  const json = Buffer.from(JSON.stringify(record), 'utf8');
  const crc = crc32(json).toString(16).padStart(8, '0');
  return Buffer.concat([Buffer.from(`${crc} `, 'latin1'), json, Buffer.from('\n', 'latin1')]);
}

export function decodeLine(line: Buffer): JournalRecord | undefined {
  if (line.length < 10 || line[8] !== 0x20) return undefined;
  const json = line.subarray(9);
  if (crc32(json).toString(16).padStart(8, '0') !== line.subarray(0, 8).toString('latin1')) return undefined;
  try {
    return JSON.parse(json.toString('utf8')) as JournalRecord;
  } catch {
    return undefined;
  }
}
