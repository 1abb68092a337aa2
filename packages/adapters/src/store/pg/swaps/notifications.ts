import type { SwapStore } from '@token-actions/core';
import { attempt } from '../failure.js';
import type { SqlExecutor } from '../sql.js';
import { statement } from '../statement.js';
import { rowLimit } from './requests.js';
import { REQUEST_COLUMNS, type RequestRow, toRequest } from './rows.js';

const SELECT_UNNOTIFIED = `SELECT ${REQUEST_COLUMNS} FROM swap_requests
  WHERE notified_at IS NULL AND status IN ('landed', 'failed', 'expired')
  ORDER BY created_at, seq LIMIT $1`;

/** The first mark stands: a second notifier of the same request changes nothing. */
const MARK_NOTIFIED = statement(
  ['requestId', 'at'],
  (p) =>
    `UPDATE swap_requests SET notified_at = ${p.at} WHERE request_id = ${p.requestId} AND notified_at IS NULL`,
);

/** Settled swaps whose completion webhook has not gone out yet, and the mark that it has. */
export function createPgNotifications(sql: SqlExecutor): Pick<SwapStore, 'listUnnotified' | 'markNotified'> {
  return {
    listUnnotified(limit) {
      return attempt('swaps.listUnnotified', async () =>
        (await sql.query<RequestRow>(SELECT_UNNOTIFIED, [rowLimit(limit)])).rows.map(toRequest),
      );
    },

    markNotified(requestId, at) {
      return attempt('swaps.markNotified', async () => {
        await sql.query(MARK_NOTIFIED.text, MARK_NOTIFIED.params({ requestId, at }));
      });
    },
  };
}
