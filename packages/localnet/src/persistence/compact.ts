import type { Landed } from '../executor/ledger.js';
import { storedAccount } from '../genesis/genesis.js';
import type { LocalnetState } from '../state.js';
import { JOURNAL_FORMAT, type RecordLocation, type StoredAccountJson } from './records.js';

const ACCOUNTS_PER_RECORD = 256;

/**
 * Rewrites the state as a snapshot (every known account, issued blockhash, NFT owner and landed
 * transaction) and starts an empty journal. Runs at start-up, before anything is served.
 */
export function compact(state: LocalnetState): void {
  const { disk, clock, history, ledger, svm, keys } = state;
  const journal = disk.journal;
  if (!journal) return;
  const moved: [Landed, RecordLocation][] = [];
  journal.compact((emit) => {
    emit({
      t: 'head',
      v: JOURNAL_FORMAT,
      genesis: keys.genesisHash,
      firstSlot: clock.firstSlot.toString(),
      gen: 0,
      txCount: history.transactionCount.toString(),
    });
    emit({ t: 'slot', s: disk.reservedSlot.toString() });
    const owners = [...history.nftOwners];
    for (let i = 0; i < owners.length; i += ACCOUNTS_PER_RECORD) {
      emit({ t: 'nft', o: owners.slice(i, i + ACCOUNTS_PER_RECORD) });
    }
    for (const [hash, issuedAt] of clock.issued) emit({ t: 'bh', h: hash, s: issuedAt.toString() });
    let batch: StoredAccountJson[] = [];
    for (const address of history.knownAccounts) {
      const account = svm.account(address);
      if (!account) {
        history.knownAccounts.delete(address);
        continue;
      }
      batch.push(storedAccount(account));
      if (batch.length === ACCOUNTS_PER_RECORD) {
        emit({ t: 'acct', a: batch });
        batch = [];
      }
    }
    if (batch.length > 0) emit({ t: 'acct', a: batch });
    for (const [id, entry] of ledger.entries()) {
      const stored = entry.location ? journal.read(entry.location) : undefined;
      // Dropping a record would forget its signature, and with it the dedupe: stop instead (the
      // snapshot is not in place yet, so the previous state stays intact).
      if (stored?.t !== 'tx') throw new Error(`localnet compaction: cannot read back transaction ${id}`);
      const { a: _a, x: _x, o: _o, ...kept } = stored;
      moved.push([entry, emit(kept)]);
    }
  });
  for (const [entry, location] of moved) entry.location = location;
}
