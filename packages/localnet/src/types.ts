import type { ChainCommitment, ParsedMessage, TransactionErrorJson } from '@token-actions/core';
import type { UiTransactionTokenBalance } from './parsed/token-balances.js';
import type { InnerInstructions } from './parsed/transaction.js';

/** The localnet's answers, in the JSON-RPC's own terms (addresses base58, amounts bigint). */

export interface IssuedBlockhash {
  readonly blockhash: string;
  /** The last block height at which a transaction using it is accepted. */
  readonly lastValidBlockHeight: bigint;
}

export interface LocalAccount {
  readonly address: string;
  readonly lamports: bigint;
  /** Base58 address of the owning program. */
  readonly owner: string;
  readonly executable: boolean;
  readonly data: Uint8Array;
}

/** Why wire bytes were not executed. `err` and `logs` are set when the runtime looked at them. */
export interface WireRejection {
  readonly reason: 'malformed' | 'signature' | 'blockhash' | 'preflight' | 'rejected' | 'unavailable';
  readonly code: 'INVALID_INPUT' | 'INSUFFICIENT_FUNDS' | 'CHAIN_UNAVAILABLE';
  /** Short, readable, safe to show a caller. */
  readonly message: string;
  readonly err?: TransactionErrorJson;
  readonly logs?: readonly string[];
  readonly unitsConsumed?: bigint;
}

export interface SimulateOptions {
  /** Check signatures (default false, as the JSON-RPC). */
  readonly sigVerify?: boolean;
  /** Run even if the blockhash is unknown or expired, and report the current one. */
  readonly replaceRecentBlockhash?: boolean;
  /** Addresses whose state after the simulation is wanted. */
  readonly accounts?: readonly string[];
}

export interface Simulation {
  readonly err: TransactionErrorJson | null;
  readonly logs: readonly string[];
  readonly unitsConsumed: bigint;
  /** In the order asked for; null for an account that does not exist afterwards. */
  readonly accounts?: readonly (LocalAccount | null)[];
  readonly returnData?: { readonly programId: string; readonly data: Uint8Array } | null;
  readonly replacementBlockhash?: IssuedBlockhash;
}

export interface LandedStatus {
  readonly slot: bigint;
  readonly commitment: ChainCommitment;
  /** Slots on top of the landing slot; null once finalized (as the JSON-RPC reports it). */
  readonly confirmations: number | null;
  readonly err: TransactionErrorJson | null;
  /** Readable explanation of the failure, when the transaction landed with an error. */
  readonly error?: string;
}

export interface LandedTransaction extends LandedStatus {
  readonly signature: string;
  readonly wire: Uint8Array;
  readonly message: ParsedMessage;
  /** Unix seconds. */
  readonly blockTime: number;
  readonly fee: bigint;
  readonly unitsConsumed: bigint;
  readonly logs: readonly string[];
  /** Lamports of every account of the message (static keys, then loaded writable, then loaded readonly). */
  readonly preBalances: readonly bigint[];
  readonly postBalances: readonly bigint[];
  readonly loadedAddresses: { readonly writable: readonly string[]; readonly readonly: readonly string[] };
  /** Per top-level instruction that invoked any, the instructions its program invoked. */
  readonly innerInstructions: readonly InnerInstructions[];
  readonly preTokenBalances: readonly UiTransactionTokenBalance[];
  readonly postTokenBalances: readonly UiTransactionTokenBalance[];
}

/** A transaction as getSignaturesForAddress lists it. */
export interface SignatureInfo {
  readonly signature: string;
  readonly slot: bigint;
  readonly err: TransactionErrorJson | null;
  readonly memo: string | null;
  readonly blockTime: number;
  readonly confirmationStatus: ChainCommitment;
}

/** A block: every slot holds one (the localnet skips none), with the transactions that landed in it. */
export interface LocalBlock {
  readonly slot: bigint;
  readonly blockhash: string;
  readonly previousBlockhash: string;
  readonly parentSlot: bigint;
  readonly blockHeight: bigint;
  /** Unix seconds. */
  readonly blockTime: number;
  /** First signatures, in the order the transactions landed. */
  readonly signatures: readonly string[];
}

/** Why a block (or its time) cannot be given. */
export type BlockUnavailable =
  | { readonly reason: 'not-yet'; readonly slot: bigint }
  | { readonly reason: 'before-first'; readonly slot: bigint; readonly firstSlot: bigint };

export interface TokenHolding {
  readonly address: string;
  readonly owner: string;
  readonly amount: bigint;
}

export interface EpochInfo {
  readonly epoch: bigint;
  readonly slotIndex: bigint;
  readonly slotsInEpoch: bigint;
  readonly absoluteSlot: bigint;
  readonly blockHeight: bigint;
  readonly transactionCount: bigint;
}
