import type { EscrowRecord, StorePort, TransactionRecord } from '@token-actions/core';
import { coalesce, oneByOne } from '../coalesce.js';
import { attempt } from '../failure.js';
import type { SqlExecutor } from '../sql.js';
import { insertRows, rowParams, rowPlaceholders } from '../statement.js';
import { ESCROW_COLUMNS, ESCROW_ROW, type Row, TX_COLUMNS, TX_ROW, toTransaction } from './rows.js';

/** Rows per multi-row insert: one parameter per column each, far below PostgreSQL's 65,535. */
const MAX_INSERT_BATCH = 256;
if (MAX_INSERT_BATCH * TX_ROW.length > 65_535) {
  throw new Error('a transaction insert batch would exceed the parameters of one statement');
}

type Inserted = { inserted: boolean; record: TransactionRecord };

const INSERT_TRANSACTION = `INSERT INTO transactions (${TX_COLUMNS}) VALUES (${rowPlaceholders(TX_ROW, 1)})
  ON CONFLICT DO NOTHING RETURNING id`;

/**
 * A funding transaction and its escrow in one statement: there is never a recorded funding
 * transaction without its escrow, nor an escrow whose funding was not recorded.
 */
const INSERT_TRANSACTION_WITH_ESCROW = `WITH tx AS (${INSERT_TRANSACTION}),
  esc AS (INSERT INTO escrows (${ESCROW_COLUMNS})
          SELECT ${rowPlaceholders(ESCROW_ROW, TX_ROW.length + 1)} FROM tx
          ON CONFLICT DO NOTHING)
  SELECT id FROM tx`;

/** The row an insert collided with: the same id, or (first) the same request key. */
const SELECT_CONFLICTING = `SELECT ${TX_COLUMNS} FROM transactions
  WHERE id = $1 OR (request_key IS NOT NULL AND request_key = $2)
  ORDER BY (request_key = $2) DESC NULLS LAST LIMIT 1`;

/** Whether two of the records share an id or a request key. */
function collide(records: readonly TransactionRecord[]): boolean {
  const seen = new Set<string>();
  return records.some((record) => {
    const keys = [`id:${record.id}`, ...(record.requestKey ? [`rk:${record.requestKey}`] : [])];
    if (keys.some((key) => seen.has(key))) return true;
    for (const key of keys) seen.add(key);
    return false;
  });
}

/**
 * Recording transactions: once each (by id and by request key), with its escrow when it funds
 * one. With `coalescing`, concurrent inserts share one multi-row statement (see `coalesce`).
 */
export function createPgTransactionInserts(
  sql: SqlExecutor,
  coalescing: boolean,
): Pick<StorePort['transactions'], 'insert'> {
  const existingRow = async (record: TransactionRecord): Promise<TransactionRecord> => {
    const existing = await sql.query<Row>(SELECT_CONFLICTING, [record.id, record.requestKey ?? null]);
    const row = existing.rows[0];
    if (!row) throw new Error('conflicting transaction row vanished');
    return toTransaction(row);
  };
  const asInserted = (record: TransactionRecord): Inserted => ({
    inserted: true,
    record: { ...record, wire: new Uint8Array(record.wire) },
  });

  const insertOne = async (record: TransactionRecord, escrow?: EscrowRecord): Promise<Inserted> => {
    const inserted = escrow
      ? await sql.query(INSERT_TRANSACTION_WITH_ESCROW, [
          ...rowParams(TX_ROW, record),
          ...rowParams(ESCROW_ROW, escrow),
        ])
      : await sql.query(INSERT_TRANSACTION, rowParams(TX_ROW, record));
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
    if (records.length === 1 || collide(records)) {
      // Nothing to gain, or collisions to settle in arrival order: the one-row path, one by one.
      return oneByOne(records, (record) => insertOne(record));
    }
    const insert = insertRows('transactions', TX_ROW, records);
    let insertedIds: Set<string>;
    try {
      const result = await sql.query<{ id: string }>(
        `${insert.text} ON CONFLICT DO NOTHING RETURNING id`,
        insert.params,
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
  };
}
