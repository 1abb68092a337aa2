import {
  canTransition,
  type DomainError,
  domainError,
  type EscrowRecord,
  refusedStatusMoves,
  type Signature,
  type StorePort,
  type TransactionRecord,
  type TxStatus,
} from '@token-actions/core';
import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import { coalesce, oneByOne } from '../coalesce.js';
import { attempt } from '../failure.js';
import type { SqlClient, SqlExecutor } from '../sql.js';
import {
  CLAIMED_COLUMNS,
  ESCROW_COLUMNS,
  escrowParams,
  numeric,
  placeholders,
  type Row,
  TX_COLUMNS,
  toClaimed,
  toDate,
  toTransaction,
} from './rows.js';

/** Rows per multi-row insert: 22 parameters each, far below PostgreSQL's 65,535. */
const MAX_INSERT_BATCH = 256;

/** Status moves per statement: 5 parameters each. */
const MAX_MOVE_BATCH = 1_000;

type Inserted = { inserted: boolean; record: TransactionRecord };

/** The statement parameters of a transaction row, in TX_COLUMNS order. */
function transactionParams(record: TransactionRecord): unknown[] {
  return [
    record.id,
    record.kind,
    record.status,
    record.currency ?? null,
    numeric(record.amount),
    record.from ?? null,
    record.to ?? null,
    record.mint ?? null,
    record.escrowId ?? null,
    record.priority ?? null,
    numeric(record.computeUnitPrice),
    record.computeUnitLimit,
    numeric(record.feeLamports),
    record.wire,
    record.blockhash,
    numeric(record.lastValidBlockHeight),
    numeric(record.slot),
    record.error ?? null,
    record.createdAt,
    record.updatedAt,
    record.requestKey ?? null,
    record.tenant,
  ];
}

const CLAIM_COLUMNS = CLAIMED_COLUMNS.split(',')
  .map((c) => `t.${c.trim()}`)
  .join(', ');

/** A page of unsettled transactions leased to a worker (`claimUnsettled`'s parameters, in order:
 * owner, limit, lease ms, now, the cursor's created_at and id, the confirmed-by cut-off). */
export const CLAIM_UNSETTLED_SQL = `WITH picked AS (
    SELECT id, COALESCE(lease_owner = $1
             AND lease_until > $4::timestamptz + ($3::bigint * interval '500 microseconds'), false) AS held
      FROM transactions
     WHERE status IN ('pending', 'processed', 'confirmed')
       AND (lease_until IS NULL OR lease_until <= $4::timestamptz OR lease_owner = $1)
       AND ($7::timestamptz IS NULL OR status <> 'confirmed' OR updated_at <= $7::timestamptz)
       AND ($5::timestamptz IS NULL OR created_at >= $5::timestamptz)
       AND ($5::timestamptz IS NULL
            OR created_at > $5::timestamptz
            OR (created_at = $5::timestamptz AND id COLLATE "C" > $6::text))
     ORDER BY created_at, id COLLATE "C"
     LIMIT $2
     FOR UPDATE SKIP LOCKED),
  renewed AS (
    UPDATE transactions t
       SET lease_owner = $1, lease_until = $4::timestamptz + ($3::bigint * interval '1 millisecond')
      FROM picked
     WHERE t.id = picked.id AND NOT picked.held)
  SELECT ${CLAIM_COLUMNS}
    FROM transactions t JOIN picked ON t.id = picked.id`;

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
  // A null tenant is the service's own, unscoped read.
  const getTransaction = (db: SqlExecutor, id: string, tenant?: string) =>
    db
      .query<Row>(
        `SELECT ${TX_COLUMNS} FROM transactions WHERE id = $1 AND ($2::text IS NULL OR tenant = $2)`,
        [id, tenant ?? null],
      )
      .then((r) => (r.rows[0] ? toTransaction(r.rows[0]) : null));

  const existingRow = async (record: TransactionRecord): Promise<TransactionRecord> => {
    const existing = await sql.query<Row>(
      `SELECT ${TX_COLUMNS} FROM transactions WHERE id = $1 OR (request_key IS NOT NULL AND request_key = $2)
        ORDER BY (request_key = $2) DESC NULLS LAST LIMIT 1`,
      [record.id, record.requestKey ?? null],
    );
    const row = existing.rows[0];
    if (!row) throw new Error('conflicting transaction row vanished');
    return toTransaction(row);
  };
  const asInserted = (record: TransactionRecord): Inserted => ({
    inserted: true,
    record: { ...record, wire: new Uint8Array(record.wire) },
  });

  const insertOne = async (record: TransactionRecord, escrow?: EscrowRecord): Promise<Inserted> => {
    const txParams = transactionParams(record);
    const insertTx = `INSERT INTO transactions (${TX_COLUMNS})
       VALUES (${placeholders(1, txParams.length)})
       ON CONFLICT DO NOTHING
       RETURNING id`;
    // With an escrow, both rows go in one statement: there is never a recorded funding
    // transaction without its escrow, nor an escrow whose funding was not recorded.
    const inserted = escrow
      ? await sql.query(
          `WITH tx AS (${insertTx}),
                esc AS (INSERT INTO escrows (${ESCROW_COLUMNS})
                        SELECT ${placeholders(txParams.length + 1, escrowParams(escrow).length)} FROM tx
                        ON CONFLICT DO NOTHING)
           SELECT id FROM tx`,
          [...txParams, ...escrowParams(escrow)],
        )
      : await sql.query(insertTx, txParams);
    if (inserted.rows.length > 0) return asInserted(record);
    return { inserted: false, record: await existingRow(record) };
  };

  /**
   * Concurrent inserts (without an escrow) as one multi-row statement. A batch in which two
   * would collide (same id or request key) takes the one-row path in arrival order, so the first
   * one wins as it would have alone; a batch that fails as a whole is retried row by row, so one
   * bad row fails only its own caller.
   */
  const insertMany = async (
    records: readonly TransactionRecord[],
  ): Promise<PromiseSettledResult<Inserted>[]> => {
    const seen = new Set<string>();
    const collides = records.some((record) => {
      const keys = [`id:${record.id}`, ...(record.requestKey ? [`rk:${record.requestKey}`] : [])];
      if (keys.some((key) => seen.has(key))) return true;
      for (const key of keys) seen.add(key);
      return false;
    });
    if (records.length === 1 || collides) {
      // Nothing to gain, or collisions to settle in arrival order: the one-row path, one by one.
      return oneByOne(records, (record) => insertOne(record));
    }
    const params: unknown[] = [];
    const rows = records.map((record) => {
      const row = transactionParams(record);
      const sqlRow = `(${placeholders(params.length + 1, row.length)})`;
      params.push(...row);
      return sqlRow;
    });
    let insertedIds: Set<string>;
    try {
      const result = await sql.query<{ id: string }>(
        `INSERT INTO transactions (${TX_COLUMNS}) VALUES ${rows.join(', ')}
         ON CONFLICT DO NOTHING RETURNING id`,
        params,
      );
      insertedIds = new Set(result.rows.map((row) => String(row.id)));
    } catch {
      return Promise.allSettled(records.map((record) => insertOne(record)));
    }
    return Promise.allSettled(
      records.map(async (record) =>
        insertedIds.has(record.id)
          ? asInserted(record)
          : { inserted: false, record: await existingRow(record) },
      ),
    );
  };
  const insertCoalesced = coalescing ? coalesce(insertMany, MAX_INSERT_BATCH) : undefined;

  return {
    insert(record, options) {
      return attempt('transactions.insert', () => {
        const escrow = options?.escrow;
        return escrow || !insertCoalesced ? insertOne(record, escrow) : insertCoalesced(record);
      });
    },

    get(id, tenant) {
      return attempt('transactions.get', () => getTransaction(sql, id, tenant));
    },

    findMint(mint, tenant) {
      return attempt('transactions.findMint', async () => {
        const result = await sql.query<Row>(
          `SELECT ${TX_COLUMNS} FROM transactions
            WHERE kind = 'mint' AND mint = $1 AND ($2::text IS NULL OR tenant = $2)
            ORDER BY created_at, id LIMIT 1`,
          [mint, tenant ?? null],
        );
        return result.rows[0] ? toTransaction(result.rows[0]) : null;
      });
    },

    transition(id, from, to, patch) {
      if (!canTransition(from, to)) {
        return errAsync(
          domainError('INVALID_STATUS_TRANSITION', `a transaction cannot move from ${from} to ${to}`),
        );
      }
      // The event row is written by the statement that moves the status, so a move and its
      // record cannot come apart, and a lost race writes neither.
      return attempt('transactions.transition', async () => {
        const moved = await sql.query(
          `WITH moved AS (
             UPDATE transactions
                SET status = $3,
                    slot = COALESCE($4::numeric, slot),
                    error = COALESCE($5::text, error),
                    updated_at = $6
              WHERE id = $1 AND status = $2
             RETURNING id
           )
           INSERT INTO transaction_events (transaction_id, from_status, to_status, at)
           SELECT id, $2::text, $3::text, $6 FROM moved
           RETURNING id`,
          [id, from, to, numeric(patch?.slot), patch?.error ?? null, now()],
        );
        return moved.rows.length > 0;
      });
    },

    transitionMany(moves) {
      const refused = refusedStatusMoves(moves);
      if (refused) return errAsync(refused);
      if (moves.length === 0) return okAsync([]);
      // One statement per chunk: the moves joined from a VALUES list, each row still a
      // compare-and-set on its own status, and its event written by the same statement.
      return attempt('transactions.transitionMany', async () => {
        const moved = new Set<string>();
        for (let first = 0; first < moves.length; first += MAX_MOVE_BATCH) {
          const chunk = moves.slice(first, first + MAX_MOVE_BATCH);
          const params: unknown[] = [now()];
          const rows = chunk.map((move) => {
            const at = params.length;
            params.push(move.id, move.from, move.to, numeric(move.patch?.slot), move.patch?.error ?? null);
            return `($${at + 1}::text, $${at + 2}::text, $${at + 3}::text, $${at + 4}::numeric, $${at + 5}::text)`;
          });
          const result = await sql.query<{ id: string }>(
            `WITH moves (id, from_status, to_status, slot, error) AS (VALUES ${rows.join(', ')}),
             moved AS (
               UPDATE transactions t
                  SET status = m.to_status,
                      slot = COALESCE(m.slot, t.slot),
                      error = COALESCE(m.error, t.error),
                      updated_at = $1
                 FROM moves m
                WHERE t.id = m.id AND t.status = m.from_status
               RETURNING t.id, m.from_status, m.to_status
             ),
             events AS (
               INSERT INTO transaction_events (transaction_id, from_status, to_status, at)
               SELECT id, from_status, to_status, $1 FROM moved
             )
             SELECT id FROM moved`,
            params,
          );
          for (const row of result.rows) moved.add(String(row.id));
        }
        return moves.map((move) => moved.has(move.id));
      });
    },

    listUnsettled(limit) {
      return attempt('transactions.listUnsettled', async () => {
        const result = await sql.query<Row>(
          `SELECT ${TX_COLUMNS} FROM transactions
            WHERE status IN ('pending', 'processed', 'confirmed')
            ORDER BY created_at, id COLLATE "C"
            LIMIT $1`,
          [Math.max(0, Math.floor(limit))],
        );
        return result.rows.map(toTransaction);
      });
    },

    claimUnsettled(owner, limit, leaseMs, after, confirmedBy) {
      return attempt('transactions.claimUnsettled', async () => {
        // SKIP LOCKED lets concurrent workers pass over rows another is claiming right now; the
        // lease then keeps them off those rows until it runs out. An owner's own lease is renewed
        // only once half of it has run: a worker passing every second would otherwise rewrite
        // every unsettled row (a new row version and its index entries) every pass. Ids compare
        // byte-wise (COLLATE "C"), as the cursor's caller orders them, whatever the collation.
        const params = [
          owner,
          Math.max(0, Math.floor(limit)),
          Math.max(0, Math.floor(leaseMs)),
          now(),
          after?.createdAt.toISOString() ?? null,
          after?.id ?? null,
          confirmedBy ?? null,
        ];
        const result = await inIndexOrder(sql, (db) => db.query<Row>(CLAIM_UNSETTLED_SQL, params));
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
