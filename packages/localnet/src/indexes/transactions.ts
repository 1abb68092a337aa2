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

/** One key's transactions, oldest first, with the key itself (so dropping them needs no copy of it). */
interface Listing<K> {
  readonly key: K;
  readonly entries: IndexedTransaction[];
}

function listingOf<K>(map: Map<K, Listing<K>>, key: K): Listing<K> {
  let listing = map.get(key);
  if (!listing) {
    listing = { key, entries: [] };
    map.set(key, listing);
  }
  return listing;
}

function dropFirst<K>(map: Map<K, Listing<K>>, listing: Listing<K>, signature: string) {
  const list = listing.entries;
  // Entries leave oldest first, so the one to drop leads its list.
  const at = list[0]?.signature === signature ? 0 : list.findIndex((e) => e.signature === signature);
  if (at >= 0) list.splice(at, 1);
  // Only an entry of this listing refers to it, so none is left once it is empty.
  if (list.length === 0) map.delete(listing.key);
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
  private readonly byAddress = new Map<string, Listing<string>>();
  private readonly bySlot = new Map<bigint, Listing<bigint>>();
  /** Insertion order is landing order: the oldest entry comes first. Each entry keeps the listings
   * it is in, not copies of its addresses: the index holds up to `historySize` transactions, and
   * the same few addresses (a treasury, the System program) appear in most of them. */
  private readonly bySignature = new Map<
    string,
    { entry: IndexedTransaction; listings: Listing<string>[]; slot: Listing<bigint> }
  >();
  private nextSeq = 0;

  get size(): number {
    return this.bySignature.size;
  }

  add(fields: Omit<IndexedTransaction, 'seq'>, addresses: readonly string[]): void {
    if (this.bySignature.has(fields.signature)) return;
    // Every field named, not `{ ...fields, seq }`: on Node 20's V8 a spread followed by another
    // property gives each object a hidden class of its own, and the index keeps them all.
    const entry: IndexedTransaction = {
      signature: fields.signature,
      slot: fields.slot,
      seq: this.nextSeq++,
      err: fields.err,
      memo: fields.memo,
      blockTime: fields.blockTime,
    };
    const listings: Listing<string>[] = [];
    for (const address of new Set(addresses)) {
      const listing = listingOf(this.byAddress, address);
      listing.entries.push(entry);
      listings.push(listing);
    }
    const slot = listingOf(this.bySlot, entry.slot);
    slot.entries.push(entry);
    this.bySignature.set(entry.signature, { entry, listings, slot });
  }

  /** Forgets the oldest entries while there are more than `max` of them and the ledger forgot them too. */
  trim(max: number, stillKnown: (signature: string) => boolean): void {
    for (const [signature, { listings, slot }] of this.bySignature) {
      if (this.bySignature.size <= max || stillKnown(signature)) return;
      this.bySignature.delete(signature);
      for (const listing of listings) dropFirst(this.byAddress, listing, signature);
      dropFirst(this.bySlot, slot, signature);
    }
  }

  get(signature: string): IndexedTransaction | undefined {
    return this.bySignature.get(signature)?.entry;
  }

  /** Newest first, as getSignaturesForAddress pages. */
  forAddress(address: string, query: AddressQuery): IndexedTransaction[] {
    const list = this.byAddress.get(address)?.entries;
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
    return this.bySlot.get(slot)?.entries ?? [];
  }
}
