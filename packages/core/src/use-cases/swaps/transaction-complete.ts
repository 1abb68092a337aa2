import { err, ok, type Result, type ResultAsync, safeTry } from 'neverthrow';
import { parseSignature, type Signature } from '../../domain/public-key.js';
import { TX_STATUSES, type TxStatus } from '../../domain/transaction.js';
import { type DomainError, domainError } from '../../errors.js';
import { trackAsService } from '../payments/track.js';
import type { SwapDeps } from './deps.js';
import { settleSwapOf } from './settle.js';

/** What a notification claims about one transaction. It is a hint: the chain decides. */
export interface CompletionClaim {
  readonly transactionId: Signature;
  readonly status?: string;
  readonly slot?: number;
  readonly error?: unknown;
}

const invalid = (why: string) => domainError('INVALID_INPUT', `invalid notification payload: ${why}`);
const MAX_ITEMS = 100;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function optionalSlot(v: unknown, where: string): Result<number | undefined, DomainError> {
  if (v === undefined || v === null) return ok(undefined);
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
    ? ok(v)
    : err(invalid(`${where}slot must be a non-negative integer`));
}

/**
 * Reads either payload shape: `{transactionId, status, slot?, error?}`, or a Helius enhanced
 * transaction array (`[{signature, slot, transactionError, ...}]`, at most 100 items).
 */
export function parseCompletionPayload(body: unknown): Result<readonly CompletionClaim[], DomainError> {
  if (Array.isArray(body)) {
    if (body.length === 0) return err(invalid('the array is empty'));
    if (body.length > MAX_ITEMS) return err(invalid(`at most ${MAX_ITEMS} transactions per notification`));
    const claims: CompletionClaim[] = [];
    for (const [i, item] of body.entries()) {
      if (!isObject(item)) return err(invalid(`item ${i} must be an object`));
      const id = parseSignature(item.signature);
      if (id.isErr()) return err(invalid(`item ${i}: signature: ${id.error.message}`));
      const slot = optionalSlot(item.slot, `item ${i}: `);
      if (slot.isErr()) return err(slot.error);
      const failed = item.transactionError !== undefined && item.transactionError !== null;
      claims.push({
        transactionId: id.value,
        status: failed ? 'failed' : 'finalized',
        ...(slot.value !== undefined ? { slot: slot.value } : {}),
        ...(failed ? { error: item.transactionError } : {}),
      });
    }
    return ok(claims);
  }
  if (!isObject(body)) return err(invalid('expected an object or an array of enhanced transactions'));
  const id = parseSignature(body.transactionId);
  if (id.isErr()) return err(invalid(id.error.message));
  if (typeof body.status !== 'string' || !(TX_STATUSES as readonly string[]).includes(body.status)) {
    return err(invalid(`status must be one of ${TX_STATUSES.join(', ')}`));
  }
  const slot = optionalSlot(body.slot, '');
  if (slot.isErr()) return err(slot.error);
  if (
    body.error !== undefined &&
    body.error !== null &&
    typeof body.error !== 'string' &&
    !isObject(body.error)
  ) {
    return err(invalid('error must be a string or an object'));
  }
  return ok([
    {
      transactionId: id.value,
      status: body.status,
      ...(slot.value !== undefined ? { slot: slot.value } : {}),
      ...(body.error !== undefined && body.error !== null ? { error: body.error } : {}),
    },
  ]);
}

export interface CompletionResult {
  readonly transactionId: Signature;
  /** What the notification said. */
  readonly claimed?: string;
  /** What the service holds after re-checking the chain; `unknown` for a transaction it never saw. */
  readonly status: TxStatus | 'unknown';
  readonly swapRequestId?: string;
  readonly swapStatus?: string;
}

/**
 * POST /webhooks/transaction-complete. A duplicate `webhook-id` changes nothing. Each claimed
 * transaction is re-checked against the chain (the same refresh as tracking) before any status
 * moves, and the swap it settles, if any, is settled from that: a notification that lies changes
 * nothing.
 */
export function transactionComplete(
  deps: Pick<SwapDeps, 'swaps' | 'chain' | 'store' | 'clock' | 'webhooks'>,
  input: { readonly webhookId?: string; readonly claims: readonly CompletionClaim[] },
): ResultAsync<{ duplicate: boolean; results: readonly CompletionResult[] }, DomainError> {
  return safeTry(async function* () {
    if (input.webhookId !== undefined) {
      const first = yield* deps.webhooks.recordInbound(input.webhookId, deps.clock.now());
      if (!first) return ok({ duplicate: true, results: [] });
    }
    const results: CompletionResult[] = [];
    for (const claim of input.claims) {
      const tracked = await trackAsService(deps, { transactionId: claim.transactionId });
      if (tracked.isErr() && tracked.error.code !== 'TRANSACTION_NOT_FOUND') return err(tracked.error);
      const swap = yield* settleSwapOf(deps, claim.transactionId);
      results.push({
        transactionId: claim.transactionId,
        ...(claim.status ? { claimed: claim.status } : {}),
        status: tracked.isOk() ? tracked.value.status : 'unknown',
        ...(swap ? { swapRequestId: swap.requestId, swapStatus: swap.status } : {}),
      });
    }
    return ok({ duplicate: false, results });
  });
}
