import { encodeBase58, type ParsedMessage, type TransactionErrorJson } from '@token-actions/core';
import { MEMO_V1_PROGRAM_ID, MEMO_V3_PROGRAM_ID } from '../parsed/program-ids.js';

/** A landed transaction as getSignaturesForAddress and getBlock find it. */
export interface IndexedTransaction {
  readonly signature: string;
  readonly slot: bigint;
  /** Landing order across the whole chain. */
  readonly seq: number;
  readonly err: TransactionErrorJson | null;
  readonly memo: string | null;
  /** Unix seconds. */
  readonly blockTime: number;
}

export interface AddressQuery {
  /** Start below this signature (exclusive); an unknown one finds nothing, as agave answers. */
  readonly before?: string;
  /** Stop at this signature (exclusive); an unknown one reaches the oldest. */
  readonly until?: string;
  readonly limit: number;
  /** Only transactions of slots up to this one (the commitment asked for). */
  readonly maxSlot: bigint;
}

const lossyUtf8 = new TextDecoder('utf-8');
const MEMO_PROGRAMS = new Set([MEMO_V1_PROGRAM_ID, MEMO_V3_PROGRAM_ID]);

/** agave's `extract_and_fmt_memos`: each memo instruction's text as `[<bytes>] <text>`, joined by `; `. */
export function memoOf(message: ParsedMessage): string | null {
  const memos: string[] = [];
  for (const ix of message.instructions) {
    const program = message.accountKeys[ix.programIndex];
    if (!program || !MEMO_PROGRAMS.has(encodeBase58(program))) continue;
    const text = lossyUtf8.decode(ix.data);
    memos.push(`[${Buffer.byteLength(text)}] ${text}`);
  }
  return memos.length > 0 ? memos.join('; ') : null;
}

function push<K>(map: Map<K, IndexedTransaction[]>, key: K, entry: IndexedTransaction) {
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}

function dropFirst<K>(map: Map<K, IndexedTransaction[]>, key: K, signature: string) {
  const list = map.get(key);
  if (!list) return;
  // Entries leave oldest first, so the one to drop leads its list.
  const at = list[0]?.signature === signature ? 0 : list.findIndex((e) => e.signature === signature);
  if (at >= 0) list.splice(at, 1);
  if (list.length === 0) map.delete(key);
}

/** The first position in `list` (ascending seq) whose seq is at least `seq`. */
function lowerBound(list: readonly IndexedTransaction[], seq: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Every remembered transaction by the addresses it names (agave indexes all of a transaction's
 * keys, programs and lookup-table ones included) and by slot. Lists are in landing order, which is
 * also slot order: the clock only moves forward and a transaction lands in the current slot.
 * Rebuilt from the journal at start-up, and trimmed with the ledger's history.
 */
export class TransactionIndex {
  private readonly byAddress = new Map<string, IndexedTransaction[]>();
  private readonly bySlot = new Map<bigint, IndexedTransaction[]>();
  /** Insertion order is landing order: the oldest entry comes first. */
  private readonly bySignature = new Map<string, { entry: IndexedTransaction; addresses: string[] }>();
  private nextSeq = 0;

  get size(): number {
    return this.bySignature.size;
  }

  add(fields: Omit<IndexedTransaction, 'seq'>, addresses: readonly string[]): void {
    if (this.bySignature.has(fields.signature)) return;
    const entry: IndexedTransaction = { ...fields, seq: this.nextSeq++ };
    const unique = [...new Set(addresses)];
    for (const address of unique) push(this.byAddress, address, entry);
    push(this.bySlot, entry.slot, entry);
    this.bySignature.set(entry.signature, { entry, addresses: unique });
  }

  /** Forgets the oldest entries while there are more than `max` of them and the ledger forgot them too. */
  trim(max: number, stillKnown: (signature: string) => boolean): void {
    for (const [signature, { entry, addresses }] of this.bySignature) {
      if (this.bySignature.size <= max || stillKnown(signature)) return;
      this.bySignature.delete(signature);
      for (const address of addresses) dropFirst(this.byAddress, address, signature);
      dropFirst(this.bySlot, entry.slot, signature);
    }
  }

  get(signature: string): IndexedTransaction | undefined {
    return this.bySignature.get(signature)?.entry;
  }

  /** Newest first, as getSignaturesForAddress pages. */
  forAddress(address: string, query: AddressQuery): IndexedTransaction[] {
    const list = this.byAddress.get(address);
    if (!list || query.limit <= 0) return [];
    let end = list.length;
    if (query.before !== undefined) {
      const before = this.get(query.before);
      if (!before) return [];
      end = lowerBound(list, before.seq);
    }
    const until = query.until === undefined ? undefined : this.get(query.until);
    const out: IndexedTransaction[] = [];
    for (let i = end - 1; i >= 0 && out.length < query.limit; i--) {
      const entry = list[i]!;
      if (until && entry.seq <= until.seq) break;
      if (entry.slot > query.maxSlot) continue;
      out.push(entry);
    }
    return out;
  }

  /** The transactions of one slot, in the order they landed. */
  inSlot(slot: bigint): readonly IndexedTransaction[] {
    return this.bySlot.get(slot) ?? [];
  }
}
