import type { StorePort } from '@token-actions/core';
import { attempt } from '../failure.js';
import type { SqlClient, SqlExecutor } from '../sql.js';
import { statement } from '../statement.js';
import { CLAIMED_COLUMNS, type Row, TX_COLUMNS, toClaimed, toTransaction } from './rows.js';
import { createPgTransactionInserts } from './transaction-inserts.js';
import { createPgTransactionMoves } from './transaction-moves.js';

export { listTransactionEvents, type TransactionEvent } from './transaction-events.js';

const CLAIM_COLUMNS = CLAIMED_COLUMNS.split(',')
  .map((c) => `t.${c.trim()}`)
  .join(', ');

/**
 * A page of unsettled transactions leased to a worker. SKIP LOCKED lets concurrent workers pass
 * over rows another is claiming right now; the lease then keeps them off those rows until it runs
 * out. An owner's own lease is renewed only once half of it has run: a worker passing every second
 * would otherwise rewrite every unsettled row (a new row version and its index entries) every
 * pass. Ids compare byte-wise (COLLATE "C"), as the cursor's caller orders them, whatever the
 * collation.
 */
const CLAIM_UNSETTLED = statement(
  ['owner', 'limit', 'leaseMs', 'now', 'afterCreatedAt', 'afterId', 'confirmedBy'],
  (p) => `WITH picked AS (
    SELECT id, COALESCE(lease_owner = ${p.owner}
             AND lease_until > ${p.now}::timestamptz + (${p.leaseMs}::bigint * interval '500 microseconds'), false) AS held
      FROM transactions
     WHERE status IN ('pending', 'processed', 'confirmed')
       AND (lease_until IS NULL OR lease_until <= ${p.now}::timestamptz OR lease_owner = ${p.owner})
       AND (${p.confirmedBy}::timestamptz IS NULL OR status <> 'confirmed' OR updated_at <= ${p.confirmedBy}::timestamptz)
       AND (${p.afterCreatedAt}::timestamptz IS NULL OR created_at >= ${p.afterCreatedAt}::timestamptz)
       AND (${p.afterCreatedAt}::timestamptz IS NULL
            OR created_at > ${p.afterCreatedAt}::timestamptz
            OR (created_at = ${p.afterCreatedAt}::timestamptz AND id COLLATE "C" > ${p.afterId}::text))
     ORDER BY created_at, id COLLATE "C"
     LIMIT ${p.limit}
     FOR UPDATE SKIP LOCKED),
  renewed AS (
    UPDATE transactions t
       SET lease_owner = ${p.owner}, lease_until = ${p.now}::timestamptz + (${p.leaseMs}::bigint * interval '1 millisecond')
      FROM picked
     WHERE t.id = picked.id AND NOT picked.held)
  SELECT ${CLAIM_COLUMNS}
    FROM transactions t JOIN picked ON t.id = picked.id`,
);

/** `claimUnsettled`'s statement; its parameters are positional in the order `CLAIM_UNSETTLED` names them. */
export const CLAIM_UNSETTLED_SQL = CLAIM_UNSETTLED.text;

/** A null tenant is the service's own, unscoped read. */
const SELECT_TRANSACTION = `SELECT ${TX_COLUMNS} FROM transactions WHERE id = $1 AND ($2::text IS NULL OR tenant = $2)`;

const SELECT_MINT = `SELECT ${TX_COLUMNS} FROM transactions
  WHERE kind = 'mint' AND mint = $1 AND ($2::text IS NULL OR tenant = $2)
  ORDER BY created_at, id LIMIT 1`;

const SELECT_UNSETTLED = `SELECT ${TX_COLUMNS} FROM transactions
  WHERE status IN ('pending', 'processed', 'confirmed')
  ORDER BY created_at, id COLLATE "C"
  LIMIT $1`;

/**
 * Transactions: one row each, a status that only moves forward (every move recorded in
 * `transaction_events` by the same statement), and leases that keep workers off each other's rows.
 * With `coalescing`, concurrent inserts share one multi-row statement (see `coalesce`).
 */
export function createPgTransactions(
  sql: SqlExecutor,
  now: () => Date,
  coalescing = false,
): StorePort['transactions'] {
  const one = async (text: string, params: unknown[]) => {
    const result = await sql.query<Row>(text, params);
    return result.rows[0] ? toTransaction(result.rows[0]) : null;
  };
  return {
    ...createPgTransactionInserts(sql, coalescing),
    ...createPgTransactionMoves(sql, now),

    get(id, tenant) {
      return attempt('transactions.get', () => one(SELECT_TRANSACTION, [id, tenant ?? null]));
    },

    findMint(mint, tenant) {
      return attempt('transactions.findMint', () => one(SELECT_MINT, [mint, tenant ?? null]));
    },

    listUnsettled(limit) {
      return attempt('transactions.listUnsettled', async () => {
        const result = await sql.query<Row>(SELECT_UNSETTLED, [Math.max(0, Math.floor(limit))]);
        return result.rows.map(toTransaction);
      });
    },

    claimUnsettled(owner, limit, leaseMs, after, confirmedBy) {
      return attempt('transactions.claimUnsettled', async () => {
        const params = CLAIM_UNSETTLED.params({
          owner,
          limit: Math.max(0, Math.floor(limit)),
          leaseMs: Math.max(0, Math.floor(leaseMs)),
          now: now(),
          afterCreatedAt: after?.createdAt.toISOString() ?? null,
          afterId: after?.id ?? null,
          confirmedBy: confirmedBy ?? null,
        });
        const result = await inIndexOrder(sql, (db) => db.query<Row>(CLAIM_UNSETTLED.text, params));
        return result.rows
          .map(toClaimed)
          .sort(
            (a, b) =>
              a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
          );
      });
    },

    countByKind(kind) {
      return attempt('transactions.countByKind', async () => {
        const result = await sql.query<{ n: string }>(
          'SELECT count(*) AS n FROM transactions WHERE kind = $1',
          [kind],
        );
        return Number(result.rows[0]?.n ?? 0);
      });
    },
  };
}

/**
 * Runs a page of the unsettled listing planned as a walk of `transactions_unsettled_order_idx`,
 * where the client can open a transaction. A burst of new rows leaves the table's statistics
 * behind (autovacuum analyzes it a minute later at best): the planner then counts a few dozen
 * unsettled rows, reads all of them and sorts them for every page of 250, so a pass over N rows
 * cost N²/250. `SET LOCAL` holds for this transaction only.
 */
export async function inIndexOrder<T>(sql: SqlExecutor, page: (db: SqlExecutor) => Promise<T>): Promise<T> {
  const client = sql as Partial<SqlClient>;
  if (typeof client.transaction !== 'function') return page(sql);
  // Sent without waiting: it goes out with the BEGIN and the page's statement behind it.
  return client.transaction((tx) => {
    tx.send("SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_sort', 'off', true)");
    return page(tx);
  });
}
