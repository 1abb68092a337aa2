import type { StorePort } from '@token-actions/core';
import { attempt } from '../failure.js';
import type { SqlExecutor } from '../sql.js';
import { rowParams, rowPlaceholders } from '../statement.js';
import { ESCROW_COLUMNS, ESCROW_ROW, type Row, toEscrow } from './rows.js';

const INSERT_ESCROW = `INSERT INTO escrows (${ESCROW_COLUMNS}) VALUES (${rowPlaceholders(ESCROW_ROW, 1)})
  ON CONFLICT DO NOTHING RETURNING id`;

/** Escrows: `held` until one compare-and-set settles them (released or refunded), or a failed settlement reopens them. */
export function createPgEscrows(sql: SqlExecutor, now: () => Date): StorePort['escrows'] {
  const getEscrow = (id: string, tenant?: string) =>
    sql
      .query<Row>(
        `SELECT ${ESCROW_COLUMNS} FROM escrows WHERE id = $1 AND ($2::text IS NULL OR tenant = $2)`,
        [id, tenant ?? null],
      )
      .then((r) => (r.rows[0] ? toEscrow(r.rows[0]) : null));

  return {
    insert(record) {
      return attempt('escrows.insert', async () => {
        const inserted = await sql.query(INSERT_ESCROW, rowParams(ESCROW_ROW, record));
        if (inserted.rows.length > 0) return { inserted: true, record };
        // The funding transaction is what makes an escrow unique; an id clash is only a fallback.
        const existing = await sql.query<Row>(
          `SELECT ${ESCROW_COLUMNS} FROM escrows
            WHERE funding_transaction_id = $1 OR id = $2
            ORDER BY (funding_transaction_id = $1) DESC
            LIMIT 1`,
          [record.fundingTransactionId, record.id],
        );
        const row = existing.rows[0];
        if (!row) throw new Error('conflicting escrow row vanished');
        return { inserted: false, record: toEscrow(row) };
      });
    },

    get(id, tenant) {
      return attempt('escrows.get', () => getEscrow(id, tenant));
    },

    reopen(id, settlementTransactionId) {
      return attempt('escrows.reopen', async () => {
        const moved = await sql.query(
          `UPDATE escrows
              SET status = 'held', settlement_transaction_id = NULL, updated_at = $3
            WHERE id = $1 AND status <> 'held' AND settlement_transaction_id = $2
           RETURNING id`,
          [id, settlementTransactionId, now()],
        );
        return moved.rows.length > 0;
      });
    },

    settle(id, to, settlementTransactionId) {
      return attempt('escrows.settle', async () => {
        const moved = await sql.query(
          `UPDATE escrows
              SET status = $2, settlement_transaction_id = $3, updated_at = $4
            WHERE id = $1 AND status = 'held'
           RETURNING id`,
          [id, to, settlementTransactionId, now()],
        );
        return moved.rows.length > 0;
      });
    },

    listExpired(at, limit) {
      return attempt('escrows.listExpired', async () => {
        const result = await sql.query<Row>(
          `SELECT ${ESCROW_COLUMNS} FROM escrows
            WHERE status = 'held' AND expires_at <= $1
            ORDER BY expires_at, id
            LIMIT $2`,
          [at, Math.max(0, Math.floor(limit))],
        );
        return result.rows.map(toEscrow);
      });
    },
  };
}
