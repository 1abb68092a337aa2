import {
  computeUnitPriceOf,
  encodeBase58,
  fromBase64,
  isWritable,
  type ParsedMessage,
  parseTransaction,
  type TransactionErrorJson,
} from '@token-actions/core';
import type { Landed } from '../executor/ledger.js';
import type { History } from '../state.js';
import type { LocalnetJournal } from './journal.js';
import { JOURNAL_FORMAT, type StoredAccountJson } from './records.js';

/** A landed transaction read back, to put into the ledger once it exists. */
interface ReplayedTransaction {
  readonly id: string;
  readonly entry: Landed;
  readonly fee?: { price: bigint; writable: string[] };
  /** For the transaction index, rebuilt once the accounts (lookup tables) are back. */
  readonly message: ParsedMessage;
  readonly blockTime: number;
}

/** What a journal holds, gathered in one pass; applied by `createLocalnet` in order. */
export interface Replayed {
  readonly firstSlot: bigint | undefined;
  /** Highest slot any record names: the chain resumes above it. */
  readonly maxSlot: bigint;
  /** Latest state of every account (null: closed). */
  readonly accounts: Map<string, StoredAccountJson | null>;
  readonly transactions: readonly ReplayedTransaction[];
}

/**
 * Reads the snapshot and journal back. Blockhashes go straight into `issued`, NFT owners and the
 * transaction count into `history`; accounts and transactions are returned. Undefined for a fresh
 * directory. Throws when the directory belongs to another seed or a newer format.
 */
export function replay(
  journal: LocalnetJournal,
  genesisHash: string,
  issued: Map<string, bigint>,
  history: History,
): Replayed | undefined {
  const accounts = new Map<string, StoredAccountJson | null>();
  const transactions: ReplayedTransaction[] = [];
  let maxSlot = 0n;
  let baseCount = 0n;
  let firstSlot: bigint | undefined;
  const seen = (slot: bigint) => {
    if (slot > maxSlot) maxSlot = slot;
  };
  const head = journal.replay((record, location) => {
    switch (record.t) {
      case 'head':
        if (record.genesis !== genesisHash) {
          throw new Error(
            `localnet state in ${journal.dir} belongs to another seed (genesis ${record.genesis}, expected ${genesisHash})`,
          );
        }
        if (record.v > JOURNAL_FORMAT) throw new Error(`localnet state in ${journal.dir} has a newer format`);
        firstSlot = BigInt(record.firstSlot);
        baseCount = BigInt(record.txCount ?? '0');
        break;
      case 'slot':
        seen(BigInt(record.s));
        break;
      case 'bh':
        issued.set(record.h, BigInt(record.s));
        seen(BigInt(record.s));
        break;
      case 'acct':
        for (const account of record.a) accounts.set(account[0], account);
        for (const address of record.x ?? []) accounts.set(address, null);
        break;
      case 'nft':
        for (const [mint, owner] of record.o) history.nftOwners.set(mint, owner);
        break;
      case 'tx': {
        const wire = fromBase64(record.w);
        if (!wire) throw new Error(`localnet state in ${journal.dir}: unreadable transaction record`);
        const parsed = parseTransaction(wire);
        const slot = BigInt(record.s);
        seen(slot);
        const entry: Landed = {
          slot,
          lastValidBlockHeight: BigInt(record.v),
          ...(record.m === undefined ? {} : { error: record.m, err: record.e as TransactionErrorJson }),
          location,
        };
        const { message } = parsed;
        transactions.push({
          id: encodeBase58(parsed.signatures[0]!),
          entry,
          message,
          blockTime: record.bt,
          ...(record.m === undefined
            ? {
                fee: {
                  price: computeUnitPriceOf(message),
                  writable: message.accountKeys.filter((_, i) => isWritable(message, i)).map(encodeBase58),
                },
              }
            : {}),
        });
        if (location.file === 'journal') history.transactionCount++;
        for (const account of record.a ?? []) accounts.set(account[0], account);
        for (const address of record.x ?? []) accounts.set(address, null);
        for (const [mint, owner] of record.o ?? []) history.nftOwners.set(mint, owner);
        break;
      }
    }
  });
  if (!head) return undefined;
  history.transactionCount += baseCount;
  return { firstSlot, maxSlot, accounts, transactions };
}
