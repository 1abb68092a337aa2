import {
  type DomainError,
  domainError,
  type NewSwapRequest,
  type PoolRecord,
  type ReservationPlan,
  releaseHops,
  reservationLimitError,
  reserveHops,
  type SwapRequestRecord,
  type SwapStore,
  withTransaction,
} from '@token-actions/core';
import { err, ok, type Result } from 'neverthrow';

/**
 * Planning a batch of reservations against the locked pools, in memory: no SQL here. The book and
 * the open-quote counts are the batch's explicit state; each reservation planned changes them, so
 * the next one sees the book exactly as it would have read it after the previous one's commit.
 */

export type ReserveInput = Parameters<SwapStore['reserve']>[0];

/** The locked pools by id, as the reservations planned so far have left them. */
export type Book = Map<string, PoolRecord>;

/** Open (prepared, unexpired) quotes per client, counting the batch's own. */
export type OpenCounts = Map<string, number>;

/** A plan's refusal travels out of the SQL transaction as this, so the transaction rolls back. */
export class PlanRefused extends Error {
  constructor(readonly domain: DomainError) {
    super(domain.message);
  }
}

export const poolNotOpen = () => domainError('INSUFFICIENT_LIQUIDITY', 'a pool of the route is not open');

/** The clients whose reservations are capped, in id order (the order their locks are taken in). */
export function cappedClients(inputs: readonly ReserveInput[]): string[] {
  return [
    ...new Set(inputs.filter((i) => i.maxOpenPerClient !== undefined).map((i) => i.request.clientId)),
  ].sort();
}

/** The pools the batch crosses, once each, in id order (the order their locks are taken in). */
export function batchPools(inputs: readonly ReserveInput[]): string[] {
  return [...new Set(inputs.flatMap((i) => i.poolIds))].sort();
}

/**
 * Whether a reservation queued while the batch took its locks can join it: the batch holds all it
 * needs, its pools and (when it is capped) its client's lock.
 */
export function fitsBatch(book: Book, capped: readonly string[]) {
  return (input: ReserveInput): boolean =>
    input.poolIds.every((id) => book.has(id)) &&
    (input.maxOpenPerClient === undefined || capped.includes(input.request.clientId));
}

/** A reservation planned and booked, waiting for its transaction to be built. */
export interface Accepted {
  /** Its position in the batch's answers. */
  readonly slot: number;
  readonly record: SwapRequestRecord;
  readonly build: ReserveInput['build'];
}

export interface PlannedBatch {
  /** One per input, in order: the planned record, or why it was refused. */
  readonly answers: PromiseSettledResult<SwapRequestRecord>[];
  readonly accepted: Accepted[];
}

function preparedRecord(request: NewSwapRequest, plan: ReservationPlan, at: Date): SwapRequestRecord {
  return { ...request, ...plan, hops: [...plan.hops], status: 'prepared', createdAt: at, updatedAt: at };
}

/** One reservation against the book: its hops booked and its record, or why it is refused. */
function planOne(
  input: ReserveInput,
  book: Book,
  open: OpenCounts,
  at: Date,
): Result<SwapRequestRecord, DomainError> {
  const { request, poolIds, plan, maxOpenPerClient } = input;
  if (maxOpenPerClient !== undefined && (open.get(request.clientId) ?? 0) >= maxOpenPerClient) {
    return err(reservationLimitError(maxOpenPerClient));
  }
  const mine = [...new Set(poolIds)].sort().map((id) => book.get(id));
  if (!mine.every((pool) => pool !== undefined)) return err(poolNotOpen());
  const planned = plan(mine);
  if (planned.isErr()) return err(planned.error);
  const after = reserveHops(book, planned.value.hops, poolNotOpen);
  if (after.isErr()) return err(after.error);
  for (const pool of after.value) book.set(pool.id, pool);
  if (request.expiresAt > at) open.set(request.clientId, (open.get(request.clientId) ?? 0) + 1);
  return ok(preparedRecord(request, planned.value, at));
}

/** Plans each reservation in arrival order; a refused plan fails only its own reservation. */
export function planBatch(
  inputs: readonly ReserveInput[],
  book: Book,
  open: OpenCounts,
  at: Date,
): PlannedBatch {
  const answers: PromiseSettledResult<SwapRequestRecord>[] = [];
  const accepted: Accepted[] = [];
  for (const input of inputs) {
    const planned = planOne(input, book, open, at);
    if (planned.isErr()) {
      answers.push({ status: 'rejected', reason: new PlanRefused(planned.error) });
      continue;
    }
    accepted.push({ slot: answers.length, record: planned.value, build: input.build });
    answers.push({ status: 'fulfilled', value: planned.value });
  }
  return { answers, accepted };
}

/**
 * Builds the accepted reservations' transactions, side by side (against a cluster a build may read
 * accounts over RPC), so each request commits with its own. A failed build books nothing: its
 * outputs go back to the pools, and the reservations planned after it promised out of less than
 * was there, never more. Returns the records to store; `answers` is updated in place.
 */
export async function buildBatch(
  { answers, accepted }: PlannedBatch,
  book: Book,
): Promise<SwapRequestRecord[]> {
  const built = await Promise.all(accepted.map(({ record, build }) => build?.(record)));
  const records: SwapRequestRecord[] = [];
  for (const [i, { slot, record }] of accepted.entries()) {
    const transaction = built[i];
    if (transaction?.isErr()) {
      for (const pool of releaseHops(book, record.hops)) book.set(pool.id, pool);
      answers[slot] = { status: 'rejected', reason: new PlanRefused(transaction.error) };
      continue;
    }
    const stored = transaction?.isOk() ? withTransaction(record, transaction.value) : record;
    records.push(stored);
    answers[slot] = { status: 'fulfilled', value: stored };
  }
  return records;
}
