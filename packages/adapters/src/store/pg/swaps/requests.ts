import type { SwapStore } from '@token-actions/core';
import { attempt } from '../failure.js';
import type { SqlExecutor } from '../sql.js';
import { statement } from '../statement.js';
import { insertRequestRows, REQUEST_COLUMNS, type RequestRow, toRequest } from './rows.js';

const SELECT_REQUEST = `SELECT ${REQUEST_COLUMNS} FROM swap_requests WHERE request_id = $1`;
const SELECT_BY_TRANSACTION = `SELECT ${REQUEST_COLUMNS} FROM swap_requests WHERE transaction_id = $1
  ORDER BY created_at LIMIT 1`;

/** The compare-and-set `prepared -> submitted`: only the caller that finds it prepared moves it. */
const MARK_SUBMITTED = statement(
  ['requestId', 'transactionId', 'signedWire', 'at'],
  (p) =>
    `UPDATE swap_requests SET status = 'submitted', transaction_id = ${p.transactionId},
       signed_wire = ${p.signedWire}, updated_at = ${p.at}
     WHERE request_id = ${p.requestId} AND status = 'prepared' RETURNING 1`,
);

const SELECT_OPEN = `SELECT ${REQUEST_COLUMNS} FROM swap_requests WHERE status IN ('prepared', 'submitted')
  ORDER BY created_at, seq LIMIT $1`;

/**
 * Three index range scans (see migration 0040): pending firm quotes still inside their blockhash
 * window are not read at all.
 */
const SELECT_DUE = statement(
  ['limit', 'blockHeight', 'now'],
  (p) =>
    `(SELECT ${REQUEST_COLUMNS} FROM swap_requests WHERE status = 'submitted'
       ORDER BY created_at, seq LIMIT ${p.limit})
     UNION ALL
     (SELECT ${REQUEST_COLUMNS} FROM swap_requests
       WHERE status = 'prepared' AND message IS NOT NULL AND last_valid_block_height < ${p.blockHeight}
       ORDER BY last_valid_block_height LIMIT ${p.limit})
     UNION ALL
     (SELECT ${REQUEST_COLUMNS} FROM swap_requests
       WHERE status = 'prepared' AND message IS NULL AND expires_at <= ${p.now}
       ORDER BY expires_at LIMIT ${p.limit})`,
);

/** A page size from the caller: a whole number, never negative. */
export const rowLimit = (limit: number) => Math.max(0, Math.floor(limit));

type Requests = Pick<
  SwapStore,
  'insertExternal' | 'get' | 'findByTransaction' | 'markSubmitted' | 'listOpen' | 'listDue'
>;

/** The swap requests outside the pool book: recorded, looked up, submitted, and listed for the worker. */
export function createPgRequests(sql: SqlExecutor, now: () => Date): Requests {
  const one = async (text: string, key: string) => {
    const r = await sql.query<RequestRow>(text, [key]);
    return r.rows[0] ? toRequest(r.rows[0]) : null;
  };
  return {
    insertExternal(request) {
      return attempt('swaps.insertExternal', async () => {
        const { text, params } = insertRequestRows([request]);
        await sql.query(text, params);
        return request;
      });
    },

    get(requestId) {
      return attempt('swaps.get', () => one(SELECT_REQUEST, requestId));
    },

    findByTransaction(id) {
      return attempt('swaps.findByTransaction', () => one(SELECT_BY_TRANSACTION, id));
    },

    markSubmitted(requestId, transactionId, signedWire) {
      return attempt('swaps.markSubmitted', async () => {
        const r = await sql.query(
          MARK_SUBMITTED.text,
          MARK_SUBMITTED.params({ requestId, transactionId, signedWire, at: now() }),
        );
        return r.rows.length > 0;
      });
    },

    listOpen(limit) {
      return attempt('swaps.listOpen', async () =>
        (await sql.query<RequestRow>(SELECT_OPEN, [rowLimit(limit)])).rows.map(toRequest),
      );
    },

    listDue({ blockHeight, now: at, limit }) {
      return attempt('swaps.listDue', async () => {
        const r = await sql.query<RequestRow>(
          SELECT_DUE.text,
          SELECT_DUE.params({ limit: rowLimit(limit), blockHeight: blockHeight.toString(), now: at }),
        );
        return r.rows.map(toRequest);
      });
    },
  };
}
