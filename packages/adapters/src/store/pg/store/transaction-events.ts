import type { DomainError, Signature, TxStatus } from '@token-actions/core';
import type { ResultAsync } from 'neverthrow';
import { attempt } from '../failure.js';
import type { SqlExecutor } from '../sql.js';
import { type Row, toDate } from './rows.js';

/** One successful status change of a transaction (a row of `transaction_events`). */
export interface TransactionEvent {
  /** Ascending in the order the changes were made. */
  readonly sequence: bigint;
  readonly transactionId: Signature;
  readonly from: TxStatus;
  readonly to: TxStatus;
  readonly at: Date;
}

/**
 * The status history of one transaction, oldest first. Not part of the store port: it is for
 * audits and for tests that prove a status moved exactly once under concurrency.
 */
export function listTransactionEvents(
  sql: SqlExecutor,
  transactionId: Signature,
): ResultAsync<readonly TransactionEvent[], DomainError> {
  return attempt('transactionEvents.list', async () => {
    const result = await sql.query<Row>(
      `SELECT id, transaction_id, from_status, to_status, at
         FROM transaction_events WHERE transaction_id = $1 ORDER BY id`,
      [transactionId],
    );
    return result.rows.map((row) => ({
      sequence: BigInt(String(row.id)),
      transactionId: String(row.transaction_id) as Signature,
      from: String(row.from_status) as TxStatus,
      to: String(row.to_status) as TxStatus,
      at: toDate(row.at),
    }));
  });
}
