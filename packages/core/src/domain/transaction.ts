import { err, ok, type Result } from 'neverthrow';
import { type DomainError, domainError } from '../errors.js';
import type { PriorityLevel } from './priority.js';
import type { PublicKey, Signature } from './public-key.js';
import type { TenantId } from './tenant.js';

export const TX_STATUSES = ['pending', 'processed', 'confirmed', 'finalized', 'failed', 'expired'] as const;
export type TxStatus = (typeof TX_STATUSES)[number];

export const TERMINAL_STATUSES: ReadonlySet<TxStatus> = new Set(['finalized', 'failed', 'expired']);

/**
 * Allowed moves. Statuses only move forward; a transaction seen at a later commitment may skip
 * the ones between. `failed` is reachable from any non-terminal state, since a failed transaction
 * is known as failed as soon as it lands. `expired` is reachable from `pending` and from
 * `processed`: a processed transaction may sit on a fork the cluster drops, and once the chain no
 * longer knows it and its blockhash has passed it can never land. A confirmed one was voted on by
 * a supermajority and does not vanish, so it cannot expire.
 */
const NEXT: Record<TxStatus, readonly TxStatus[]> = {
  pending: ['processed', 'confirmed', 'finalized', 'failed', 'expired'],
  processed: ['confirmed', 'finalized', 'failed', 'expired'],
  confirmed: ['finalized', 'failed'],
  finalized: [],
  failed: [],
  expired: [],
};

export function canTransition(from: TxStatus, to: TxStatus): boolean {
  return NEXT[from].includes(to);
}

export function checkTransition(from: TxStatus, to: TxStatus): Result<TxStatus, DomainError> {
  return canTransition(from, to)
    ? ok(to)
    : err(domainError('INVALID_STATUS_TRANSITION', `a transaction cannot move from ${from} to ${to}`));
}

/**
 * Why a set of status moves may not be applied together: a move the status machine refuses, or
 * the same transaction twice. Undefined when they may.
 */
export function refusedStatusMoves(
  moves: readonly { readonly id: string; readonly from: TxStatus; readonly to: TxStatus }[],
): DomainError | undefined {
  const ids = new Set<string>();
  for (const move of moves) {
    const refused = checkTransition(move.from, move.to);
    if (refused.isErr()) return refused.error;
    if (ids.has(move.id)) {
      return domainError('INVALID_INPUT', 'a batch of status moves names one transaction twice');
    }
    ids.add(move.id);
  }
  return undefined;
}

export const TRANSACTION_KINDS = [
  'mint',
  'donation',
  'charity_donation',
  'merchant_payment',
  'escrow_release',
  'escrow_refund',
  'airdrop',
  'swap',
] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/** What the service recorded about a transaction before sending it (the outbox row). */
export interface TransactionRecord {
  readonly id: Signature;
  /** Whose transaction it is: only that tenant tracks it (swaps belong to the default tenant). */
  readonly tenant: TenantId;
  readonly kind: TransactionKind;
  readonly status: TxStatus;
  readonly currency?: string;
  readonly amount?: bigint;
  readonly from?: PublicKey;
  readonly to?: PublicKey;
  readonly mint?: PublicKey;
  readonly escrowId?: string;
  readonly priority?: PriorityLevel;
  /** The caller's idempotency key (scoped), when the request carried one: at most one transaction per key. */
  readonly requestKey?: string;
  readonly computeUnitPrice: bigint;
  readonly computeUnitLimit: number;
  readonly feeLamports: bigint;
  /** The signed wire bytes, kept so the transaction can be rebroadcast after a restart. */
  readonly wire: Uint8Array;
  readonly blockhash: string;
  readonly lastValidBlockHeight: bigint;
  readonly slot?: bigint;
  readonly error?: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export type TransactionStatusPatch = { slot?: bigint; error?: string };
