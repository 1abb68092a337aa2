import { type Currencies, Recent } from '@token-actions/core';
import type { SlotClock } from './clock/slot-clock.js';
import type { Settings } from './config.js';
import type { Listeners } from './events/listeners.js';
import type { Ledger } from './executor/ledger.js';
import type { GenesisKeys } from './genesis/genesis.js';
import type { SlotTimeline } from './indexes/slots.js';
import { TransactionIndex } from './indexes/transactions.js';
import type { UiTransactionTokenBalance } from './parsed/token-balances.js';
import type { InnerInstructions } from './parsed/transaction.js';
import type { Disk } from './persistence/disk.js';
import type { Svm } from './svm/svm.js';

/** Details of a landed transaction that only getTransaction needs. */
export interface Detail {
  readonly wire: Uint8Array;
  readonly blockTime: number;
  readonly fee: bigint;
  readonly unitsConsumed: bigint;
  readonly logs: readonly string[];
  readonly preBalances: readonly bigint[];
  readonly postBalances: readonly bigint[];
  readonly innerInstructions?: readonly InnerInstructions[];
  readonly preTokenBalances?: readonly UiTransactionTokenBalance[];
  readonly postTokenBalances?: readonly UiTransactionTokenBalance[];
}

/** Full records (wire, logs, balances) kept in memory for getTransaction; older ones come from disk. */
const RECENT_DETAILS = 5_000;

/** What the localnet remembers beyond LiteSVM's accounts and the ledger's statuses. */
export class History {
  /** The most recent transactions' details; the oldest makes room for a new one. */
  readonly details = new Recent<string, Detail>(RECENT_DETAILS);
  /** NFT mint -> the owner it was minted to (read back only while that owner still holds it). */
  readonly nftOwners = new Map<string, string>();
  /** Accounts any transaction ever wrote: what a compaction snapshots. */
  readonly knownAccounts = new Set<string>();
  /** Transactions by address and by slot (getSignaturesForAddress, getBlock). */
  readonly index = new TransactionIndex();
  transactionCount = 0n;
  /** Tells apart identical transactions the localnet signs itself within one blockhash. */
  localTransactions = 0;
}

/** One localnet's whole state, passed explicitly to the modules that act on it. */
export interface LocalnetState {
  readonly settings: Settings;
  readonly svm: Svm;
  readonly clock: SlotClock;
  readonly ledger: Ledger;
  readonly disk: Disk;
  readonly history: History;
  readonly keys: GenesisKeys;
  readonly currencies: Currencies;
  readonly listeners: Listeners;
  readonly timeline: SlotTimeline;
}
