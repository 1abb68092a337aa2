import { ok, okAsync, ResultAsync, safeTry } from 'neverthrow';
import type { Signature } from '../../domain/public-key.js';
import { splitWireTransaction } from '../../domain/signed-transaction.js';
import { canTransition, type TransactionRecord, type TxStatus } from '../../domain/transaction.js';
import { isZero } from '../../domain/wire-message.js';
import type { DomainError } from '../../errors.js';
import type { ChainStatus } from '../../ports/chain.js';
import type { ClaimedTransaction, StatusMove, UnsettledCursor } from '../../ports/store.js';
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
  record: Pick<TransactionRecord, 'id' | 'kind' | 'escrowId'>,
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
  return reconcile(deps, records).map(({ records: after }) => after);
}

/** What reconciling reads of a transaction: a full record, or what a tracking pass claims. */
type Tracked = Pick<TransactionRecord, 'id' | 'kind' | 'status' | 'escrowId' | 'lastValidBlockHeight'>;

/**
 * `refreshStatuses`, also answering the block height its view was taken at. A record that moved
 * comes back with its new status, slot, error and update time over what it had.
 */
function reconcile<R extends Tracked>(
  deps: Pick<ActionDeps, 'chain' | 'store' | 'clock'>,
  records: readonly R[],
): ResultAsync<{ height: bigint; records: R[]; unseen: ReadonlySet<string> }, DomainError> {
  if (records.length === 0) return okAsync({ height: 0n, records: [], unseen: new Set<string>() });
  return safeTry(async function* () {
    // Read the height before the statuses: a transaction that lands between the two reads is then
    // seen as landed rather than wrongly expired.
    const height = yield* deps.chain.getBlockHeight();
    const out: R[] = [];
    const unseen = new Set<string>();
    for (const batch of chunks(records, STATUS_BATCH)) {
      const statuses = yield* deps.chain.getStatuses(batch.map((r) => r.id as Signature));
      const moves: { index: number; move: StatusMove }[] = [];
      for (const [index, record] of batch.entries()) {
        const chain = statuses[index] ?? null;
        if (!chain) unseen.add(record.id);
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
    return ok({ height, records: out, unseen });
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

/** The statuses whose transaction the chain may not know: never seen, or seen only on a fork. */
const MAY_BE_UNSEEN: ReadonlySet<TxStatus> = new Set(['pending', 'processed']);

/**
 * Re-sends the records the chain did not know in this pass that are inside their blockhash window
 * (sending is idempotent): `pending` ones it never saw, and `processed` ones whose fork was
 * dropped, which would otherwise sit at `processed` until they expire. Ones it knows are never
 * re-sent: re-sending thousands of landed transactions only re-parsed them on the caller's event
 * loop.
 */
function resendUnseen(
  deps: Pick<ActionDeps, 'chain'>,
  records: readonly ClaimedTransaction[],
  unseen: ReadonlySet<string>,
  height: bigint,
): ResultAsync<number, DomainError> {
  const resend = records.filter(
    (r) =>
      unseen.has(r.id) &&
      MAY_BE_UNSEEN.has(r.status) &&
      height <= r.lastValidBlockHeight &&
      !awaitsWalletSignature(r.wire),
  );
  return ResultAsync.combine(resend.map((r) => deps.chain.send(r.wire).orElse(() => okAsync(r.id)))).map(
    () => resend.length,
  );
}

export interface TrackingPassOptions {
  /** Identifies this worker's leases. */
  readonly owner: string;
  /** Transactions the pass reconciles at most. */
  readonly limit?: number;
  /** Transactions each claim takes: what the pass handles between two waits on the store. */
  readonly chunk?: number;
  /** How long a claimed transaction stays this worker's; longer than one pass. */
  readonly leaseMs?: number;
  /**
   * How long after a transaction was seen confirmed it cannot be final yet (a little less than the
   * chain's finality depth in slots, times its slot time). Until then the pass leaves it alone:
   * most unsettled transactions are confirmed ones waiting out those slots, and reading each of
   * them every pass was most of a pass's work. 0 (the default) polls every one every pass.
   */
  readonly finalityWaitMs?: number;
}

/** Transactions one tracking pass reconciles at most. */
export const TRACKING_PASS_LIMIT = 5_000;
/**
 * Transactions one claim of a pass takes. A pass walks the unsettled ones in chunks of this size
 * (each claim starts after the last one's final transaction), so the work it does on the caller's
 * event loop between two awaits stays small: one claim of 5,000 rows stalled the requests the
 * server was serving beside its in-process worker for tens of milliseconds every pass.
 */
export const TRACKING_CHUNK = 250;

/**
 * One pass of the confirmation loop of one worker among several: lease the unsettled transactions
 * chunk by chunk, reconcile each chunk with the chain, then re-send those the chain has not seen
 * that are still inside their blockhash window. Leases keep two workers off the same transactions.
 */
export function trackingPass(
  deps: Pick<ActionDeps, 'chain' | 'store' | 'clock'>,
  options: TrackingPassOptions,
): ResultAsync<{ claimed: number; rebroadcast: number; moved: number }, DomainError> {
  const limit = Math.max(0, options.limit ?? TRACKING_PASS_LIMIT);
  const chunk = Math.max(1, Math.min(limit, options.chunk ?? TRACKING_CHUNK));
  const leaseMs = options.leaseMs ?? 30_000;
  const finalityWaitMs = Math.max(0, options.finalityWaitMs ?? 0);
  return safeTry(async function* () {
    const total = { claimed: 0, rebroadcast: 0, moved: 0 };
    const confirmedBy =
      finalityWaitMs > 0 ? new Date(deps.clock.now().getTime() - finalityWaitMs) : undefined;
    let after: UnsettledCursor | undefined;
    while (total.claimed < limit) {
      const wanted = Math.min(chunk, limit - total.claimed);
      const claimed = yield* deps.store.transactions.claimUnsettled(
        options.owner,
        wanted,
        leaseMs,
        after,
        confirmedBy,
      );
      if (claimed.length === 0) break;
      const { height, records, unseen } = yield* reconcile(deps, claimed);
      total.rebroadcast += yield* resendUnseen(deps, records, unseen, height);
      total.moved += records.filter((r, i) => r.status !== claimed[i]!.status).length;
      total.claimed += claimed.length;
      if (claimed.length < wanted) break;
      const last = claimed[claimed.length - 1]!;
      after = { createdAt: last.createdAt, id: last.id };
    }
    return ok(total);
  });
}
