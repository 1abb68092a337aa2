import { ok, okAsync, ResultAsync, safeTry } from 'neverthrow';
import type { Signature } from '../domain/public-key.js';
import { splitWireTransaction } from '../domain/signed-transaction.js';
import { canTransition, type TransactionRecord, type TxStatus } from '../domain/transaction.js';
import { isZero } from '../domain/wire-message.js';
import type { DomainError } from '../errors.js';
import type { ChainStatus } from '../ports/chain.js';
import type { StatusMove } from '../ports/store.js';
import type { ActionDeps } from './deps.js';

/** getSignatureStatuses takes at most 256 signatures a call. */
export const STATUS_BATCH = 256;

/** The status the chain's view implies, or undefined when it implies no change yet. */
export function statusFromChain(
  record: Pick<TransactionRecord, 'lastValidBlockHeight'>,
  chain: ChainStatus | null,
  blockHeight: bigint,
): TxStatus | undefined {
  if (chain) return chain.error ? 'failed' : chain.commitment;
  return blockHeight > record.lastValidBlockHeight ? 'expired' : undefined;
}

/**
 * An escrow payout that failed or expired moved no funds: the escrow goes back to `held` so it
 * can be released or refunded again (or by the worker when it expires). Called by whoever won the
 * status transition, so it runs once.
 */
function reopenEscrowOfLostPayout(
  deps: Pick<ActionDeps, 'store'>,
  record: TransactionRecord,
  next: TxStatus,
): ResultAsync<boolean, DomainError> {
  const payout = record.kind === 'escrow_release' || record.kind === 'escrow_refund';
  if (!payout || !record.escrowId || (next !== 'failed' && next !== 'expired')) return okAsync(false);
  return deps.store.escrows.reopen(record.escrowId, record.id);
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Reconciles records with the chain: one block-height read, and per 256 records one status call
 * and one batched store write. Moves are compare-and-set, so concurrent refreshers never apply a
 * change twice.
 */
export function refreshStatuses(
  deps: Pick<ActionDeps, 'chain' | 'store' | 'clock'>,
  records: readonly TransactionRecord[],
): ResultAsync<TransactionRecord[], DomainError> {
  if (records.length === 0) return okAsync([]);
  return safeTry(async function* () {
    // Read the height before the statuses: a transaction that lands between the two reads is then
    // seen as landed rather than wrongly expired.
    const height = yield* deps.chain.getBlockHeight();
    const out: TransactionRecord[] = [];
    for (const batch of chunks(records, STATUS_BATCH)) {
      const statuses = yield* deps.chain.getStatuses(batch.map((r) => r.id as Signature));
      const moves: { index: number; move: StatusMove }[] = [];
      for (const [index, record] of batch.entries()) {
        const chain = statuses[index] ?? null;
        const next = statusFromChain(record, chain, height);
        if (!next || next === record.status || !canTransition(record.status, next)) continue;
        const patch = {
          ...(chain ? { slot: chain.slot } : {}),
          ...(chain?.error ? { error: chain.error } : {}),
        };
        moves.push({ index, move: { id: record.id, from: record.status, to: next, patch } });
      }
      const after = batch.slice();
      if (moves.length > 0) {
        // One statement for the batch's moves, each still a compare-and-set.
        const moved = yield* deps.store.transactions.transitionMany(moves.map(({ move }) => move));
        const at = deps.clock.now();
        const reopened = moves.flatMap(({ index, move }, k) => {
          if (!moved[k]) return [];
          const record = batch[index]!;
          after[index] = { ...record, ...move.patch, status: move.to, updatedAt: at };
          return [reopenEscrowOfLostPayout(deps, record, move.to)];
        });
        yield* ResultAsync.combine(reopened);
      }
      out.push(...after);
    }
    return ok(out);
  });
}

/** One sweep of the confirmation loop: refresh every unsettled transaction. Returns how many moved. */
export function sweepUnsettled(
  deps: Pick<ActionDeps, 'chain' | 'store' | 'clock'>,
  limit = 10_000,
): ResultAsync<{ checked: number; moved: number }, DomainError> {
  return deps.store.transactions.listUnsettled(limit).andThen((records) =>
    refreshStatuses(deps, records).map((after) => ({
      checked: records.length,
      moved: after.filter((r, i) => r.status !== records[i]!.status).length,
    })),
  );
}

/** A recorded transaction with an empty signature slot waits for a wallet (a Solana Action): only
 * the wallet can complete and send it, so rebroadcasting it would only be refused. */
export function awaitsWalletSignature(wire: Uint8Array): boolean {
  return splitWireTransaction(wire)?.signatures.some(isZero) ?? false;
}

/** Re-sends the pending ones among `records` still inside their blockhash window (sending is idempotent). */
function resendInWindow(
  deps: Pick<ActionDeps, 'chain'>,
  records: readonly TransactionRecord[],
  height: bigint,
): ResultAsync<number, DomainError> {
  const pending = records.filter(
    (r) => r.status === 'pending' && height <= r.lastValidBlockHeight && !awaitsWalletSignature(r.wire),
  );
  return ResultAsync.combine(pending.map((r) => deps.chain.send(r.wire).orElse(() => okAsync(r.id)))).map(
    () => pending.length,
  );
}

export interface TrackingPassOptions {
  /** Identifies this worker's leases. */
  readonly owner: string;
  readonly limit?: number;
  /** How long a claimed transaction stays this worker's; longer than one pass. */
  readonly leaseMs?: number;
}

/**
 * One pass of the confirmation loop of one worker among several: lease a batch of unsettled
 * transactions, re-send those still pending inside their blockhash window, then reconcile all of
 * them with the chain. Leases keep two workers off the same transactions.
 */
export function trackingPass(
  deps: Pick<ActionDeps, 'chain' | 'store' | 'clock'>,
  options: TrackingPassOptions,
): ResultAsync<{ claimed: number; rebroadcast: number; moved: number }, DomainError> {
  return safeTry(async function* () {
    const claimed = yield* deps.store.transactions.claimUnsettled(
      options.owner,
      options.limit ?? 5_000,
      options.leaseMs ?? 30_000,
    );
    if (claimed.length === 0) return ok({ claimed: 0, rebroadcast: 0, moved: 0 });
    const height = yield* deps.chain.getBlockHeight();
    const rebroadcast = yield* resendInWindow(deps, claimed, height);
    const after = yield* refreshStatuses(deps, claimed);
    return ok({
      claimed: claimed.length,
      rebroadcast,
      moved: after.filter((r, i) => r.status !== claimed[i]!.status).length,
    });
  });
}
