import type { AccountState } from '../parsed/account.js';

export type Commitment = 'processed' | 'confirmed' | 'finalized';

/** Lowest to highest: the order in which a slot reaches them. */
export const COMMITMENT_LEVELS: readonly Commitment[] = ['processed', 'confirmed', 'finalized'];

/** A transaction that landed in `slot`, as the localnet reports it to the pubsub service. */
export interface LandedTransaction {
  readonly signature: string;
  readonly slot: bigint;
  /** The transaction error as the RPC renders it (e.g. `{"InstructionError":[0,{"Custom":1}]}`); null on success. */
  readonly err: unknown;
  readonly logs: readonly string[];
  /** Every account the message names, lookup-table ones included (what `logsSubscribe` `mentions` matches). */
  readonly accountKeys: readonly string[];
  /** The accounts the transaction could have changed: `accountSubscribe` and `programSubscribe` look at these. */
  readonly writableAccounts: readonly string[];
}

/** The highest slot that reached each commitment level. */
export interface CommitmentSlots {
  readonly processed: bigint;
  readonly confirmed: bigint;
  readonly finalized: bigint;
}

/** How the pubsub service reads accounts: their state as of the given commitment level. */
export interface PubSubChainReader {
  getAccount(address: string, commitment: Commitment): AccountState | undefined;
}

/**
 * What the localnet feeds the pubsub service, in the order things happen. Notifications follow
 * agave's `rpc_subscriptions`: a subscription hears about a slot's transactions and account changes
 * when that slot reaches the subscription's commitment level, once per slot, in slot order.
 */
export interface PubSubEvents {
  /**
   * A transaction reached the node (before it executes). Only signature subscriptions made with
   * `enableReceivedNotification` hear it, once. `onTransaction` sends it too if this was not called.
   */
  onReceived(signature: string, slot: bigint): void;
  /** A transaction landed in `transaction.slot`; it is announced as that slot reaches each level. */
  onTransaction(transaction: LandedTransaction): void;
  /**
   * The slot clock moved to `slot`, and the commitment levels reached `reached`. No transaction may land
   * again in a slot at or below `reached.processed` (that bank is frozen).
   */
  onSlot(slot: bigint, reached: CommitmentSlots): void;
}
