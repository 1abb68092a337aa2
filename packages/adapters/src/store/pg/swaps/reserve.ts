import {
  type DomainError,
  isDomainError,
  overPromisedError,
  type SwapRequestRecord,
  type SwapStore,
} from '@token-actions/core';
import { ResultAsync } from 'neverthrow';
import { coalesce, type Join, oneByOne } from '../coalesce.js';
import { sqlState, storeFailure } from '../failure.js';
import type { SqlClient } from '../sql.js';
import {
  batchPools,
  buildBatch,
  cappedClients,
  fitsBatch,
  PlanRefused,
  planBatch,
  type ReserveInput,
} from './reserve-batch.js';
import { lockBatch, openByClient, sendBatch } from './reserve-sql.js';
import { REQUEST_INSERT_COLUMNS } from './rows.js';

/** Reservations per batch: one parameter per request column per row, far below PostgreSQL's 65,535. */
const MAX_RESERVE_BATCH = 128;
if (MAX_RESERVE_BATCH * REQUEST_INSERT_COLUMNS.length > 65_535) {
  throw new Error('a reservation batch would exceed the parameters of one statement');
}

function reserveError(error: unknown): DomainError {
  if (error instanceof PlanRefused) return error.domain;
  if (isDomainError(error)) return error;
  // A CHECK violation means a reservation would exceed the reserve: refuse, never over-promise.
  if (sqlState(error) === '23514') return overPromisedError();
  return storeFailure('swaps.reserve')(error);
}

/**
 * Firm quotes' reservations. A reservation locks its pools `FOR UPDATE` and prices on what it reads
 * under the lock, so concurrent quotes on one pool are serialised and none can promise what
 * another already has. With `coalescing`, concurrent reservations share one transaction.
 */
export function createPgReservations(
  sql: SqlClient,
  now: () => Date,
  coalescing: boolean,
): Pick<SwapStore, 'reserve'> {
  /**
   * Reservations in one transaction (one, or several that arrived together): the clients' locks and
   * the pools' row locks are taken once, each reservation is planned in arrival order against the
   * book as the ones before it left it (in memory, exactly as it would have read it after their
   * commits), and one statement writes the pools and inserts the requests. A refused plan fails
   * only its own reservation. Two round trips, the connection pipelining: BEGIN, the clients'
   * locks and the pools' locks with the clients' open-quote counts; then the write with the
   * COMMIT. With `join`, quotes queued meanwhile may join it once the locks are held.
   */
  const reserveInOne = (given: readonly ReserveInput[], join?: Join<ReserveInput>) =>
    sql.transaction(async (tx): Promise<PromiseSettledResult<SwapRequestRecord>[]> => {
      const inputs = [...given];
      const capped = cappedClients(inputs);
      const locked = await lockBatch(tx, batchPools(inputs), capped, now());
      // Quotes queued while the locks were being taken join when the batch holds all they need:
      // under load a quote that just missed a batch would otherwise run a transaction of its own.
      if (join) inputs.push(...join(fitsBatch(locked.book, capped)));
      const open = locked.open ?? (await openByClient(tx, capped, now()));
      const at = now();
      const planned = planBatch(inputs, locked.book, open, at);
      // The transactions are built while the pools stay locked, so each request commits with its own.
      const records = await buildBatch(planned, locked.book);
      if (records.length > 0) sendBatch(tx, records, locked.book, at);
      return planned.answers;
    });

  /** One reservation on its own: its transaction's answer, or what broke it. */
  const reserveOne = async (input: ReserveInput): Promise<SwapRequestRecord> => {
    const [answer] = await reserveInOne([input]);
    if (answer!.status === 'rejected') throw answer!.reason;
    return answer!.value;
  };

  /**
   * Concurrent reservations together (group commit, like the transaction inserts). A batch that
   * fails as a whole (a lost connection, a constraint, a plan that throws) is retried one by one,
   * so each caller gets its own answer.
   */
  const reserveMany = async (
    inputs: readonly ReserveInput[],
    join: Join<ReserveInput>,
  ): Promise<PromiseSettledResult<SwapRequestRecord>[]> => {
    const all = [...inputs];
    try {
      return await reserveInOne(inputs, (fits) => {
        const joined = join(fits);
        all.push(...joined);
        return joined;
      });
    } catch (cause) {
      // A lone reservation's failure is its own answer.
      if (all.length === 1) return [{ status: 'rejected', reason: cause }];
    }
    return oneByOne(all, reserveOne);
  };
  const reserveCoalesced = coalescing ? coalesce(reserveMany, MAX_RESERVE_BATCH) : undefined;

  return {
    reserve(input) {
      return ResultAsync.fromPromise((reserveCoalesced ?? reserveOne)(input), reserveError);
    },
  };
}
