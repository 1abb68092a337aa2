import { ok, type ResultAsync, safeTry } from 'neverthrow';
import type { Signature } from '../../domain/public-key.js';
import type { TxStatus } from '../../domain/transaction.js';
import type { DomainError } from '../../errors.js';
import type { ChainStatus } from '../../ports/chain.js';
import type { SwapRequestRecord } from '../../ports/swap-store.js';
import { statusFromChain } from '../payments/tracking.js';
import type { SwapDeps } from './deps.js';

type SettleDeps = Pick<SwapDeps, 'swaps' | 'chain' | 'store' | 'clock'>;
type Outcome = 'landed' | 'failed' | 'expired';

/** The id a request's transaction has or will have: the fee payer's signature. */
export function swapTransactionIdOf(request: SwapRequestRecord): Signature | undefined {
  return request.transactionId ?? request.transaction?.transactionId;
}

/** How the pool book should settle a request given its transaction's status; undefined = not yet. */
export function swapOutcome(status: TxStatus | undefined): Outcome | undefined {
  switch (status) {
    case 'finalized':
      return 'landed';
    case 'failed':
      return 'failed';
    case 'expired':
      return 'expired';
    case 'pending':
    case 'processed':
    case 'confirmed':
    case undefined:
      return undefined;
  }
  // A status added to TxStatus fails to compile here until it has a case above; a value from
  // outside the union (a row written by a newer version) settles nothing.
  status satisfies never;
  return undefined;
}

/**
 * Decides the outcome of open swap requests from the chain (through the outbox record when the
 * service sent the transaction, straight from the chain when the wallet may have sent it itself),
 * and settles the pool book for those that reached a terminal status. Settling is a
 * compare-and-set, so two workers observing the same change apply it once.
 */
export function settleRequests(
  deps: SettleDeps,
  requests: readonly SwapRequestRecord[],
): ResultAsync<{ settled: number }, DomainError> {
  return safeTry(async function* () {
    if (requests.length === 0) return ok({ settled: 0 });
    const height = yield* deps.chain.getBlockHeight();
    const now = deps.clock.now();
    const ids = requests.map(swapTransactionIdOf);
    const unrecorded: number[] = [];
    const statuses: (TxStatus | undefined)[] = [];
    const errors: (string | undefined)[] = [];
    for (const [i, id] of ids.entries()) {
      const record = id ? yield* deps.store.transactions.get(id) : null;
      statuses[i] = record?.status;
      errors[i] = record?.error;
      if (id && !record) unrecorded.push(i);
    }
    for (let start = 0; start < unrecorded.length; start += 256) {
      const batch = unrecorded.slice(start, start + 256);
      const seen = yield* deps.chain.getStatuses(batch.map((i) => ids[i]!));
      batch.forEach((i, k) => {
        const chain: ChainStatus | null = seen[k] ?? null;
        const tx = requests[i]!.transaction!;
        statuses[i] = statusFromChain({ lastValidBlockHeight: tx.lastValidBlockHeight }, chain, height);
        errors[i] = chain?.error;
      });
    }
    let settled = 0;
    for (const [i, request] of requests.entries()) {
      let outcome = swapOutcome(statuses[i]);
      const tx = request.transaction;
      if (!outcome && !ids[i]) {
        // No id to look for (a user-paid route not executed here, or a transaction never built):
        // release once its blockhash, or for an unbuilt one its time, has passed.
        if (tx ? height > tx.lastValidBlockHeight : now.getTime() > request.expiresAt.getTime())
          outcome = 'expired';
      }
      if (!outcome) continue;
      const moved = yield* deps.swaps.settle(
        request.requestId,
        outcome,
        errors[i] ? { error: errors[i] } : {},
      );
      if (moved) settled++;
    }
    return ok({ settled });
  });
}

/**
 * One pass over the open requests whose outcome can be decided now (the worker calls it after the
 * tracking pass): those sent, and those whose blockhash or build time ran out. A pending firm
 * quote inside its blockhash window is not read at all, so unexecuted quotes cost nothing until
 * they expire; one the wallet sent itself is settled once its window ends (or when a notification
 * names it).
 */
export function settleSwaps(
  deps: SettleDeps,
  limit = 1_000,
): ResultAsync<{ open: number; settled: number }, DomainError> {
  return deps.chain
    .getBlockHeight()
    .andThen((blockHeight) => deps.swaps.listDue({ blockHeight, now: deps.clock.now(), limit }))
    .andThen((due) => settleRequests(deps, due).map(({ settled }) => ({ open: due.length, settled })));
}

/** Settles the swap a transaction belongs to, if any (used when a notification arrives). */
export function settleSwapOf(
  deps: SettleDeps,
  id: Signature,
): ResultAsync<SwapRequestRecord | null, DomainError> {
  return deps.swaps.findByTransaction(id).andThen((request) => {
    if (!request || (request.status !== 'prepared' && request.status !== 'submitted')) {
      return deps.swaps.findByTransaction(id);
    }
    return settleRequests(deps, [request]).andThen(() => deps.swaps.get(request.requestId));
  });
}

/** The body of an outbound notification (Standard Webhooks' recommended `{type, timestamp, data}`). */
export function swapEventPayload(request: SwapRequestRecord, at: Date): { type: string; payload: string } {
  const type = `swap.${request.status}`;
  const id = swapTransactionIdOf(request);
  return {
    type,
    payload: JSON.stringify({
      type,
      timestamp: at.toISOString(),
      data: {
        requestId: request.requestId,
        status: request.status,
        transactionStatus: request.status === 'landed' ? 'finalized' : request.status,
        ...(id ? { transactionId: id } : {}),
        source: request.source,
        tokenPair: `${request.inputToken}-${request.outputToken}`,
        account: request.user,
        inAmount: request.inAmount.toString(),
        outAmount: request.outAmount.toString(),
        ...(request.error ? { error: request.error } : {}),
      },
    }),
  };
}

/**
 * Queues a notification for every terminal swap whose client registered a webhook URL, then marks
 * the swap notified. Queuing is idempotent (the delivery id is derived from the request), so a
 * crash between the two steps queues nothing twice.
 */
export function notifySwaps(
  deps: Pick<SwapDeps, 'swaps' | 'webhooks' | 'clients' | 'clock' | 'swapPolicies'>,
  limit = 500,
): ResultAsync<{ queued: number }, DomainError> {
  return safeTry(async function* () {
    const pending = yield* deps.swaps.listUnnotified(limit);
    let queued = 0;
    for (const request of pending) {
      const client = yield* deps.clients.get(request.clientId);
      const now = deps.clock.now();
      if (client?.webhookUrl) {
        const event = swapEventPayload(request, now);
        const fresh = yield* deps.webhooks.enqueue({
          id: `msg_${request.requestId}_${request.status}`,
          clientId: request.clientId,
          url: client.webhookUrl,
          eventType: event.type,
          payload: event.payload,
          maxAttempts: deps.swapPolicies.webhookMaxAttempts,
          nextAttemptAt: now,
          createdAt: now,
        });
        if (fresh) queued++;
      }
      yield* deps.swaps.markNotified(request.requestId, now);
    }
    return ok({ queued });
  });
}
