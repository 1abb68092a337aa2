import type { SwapStore } from '@token-actions/core';
import { attempt } from '../failure.js';
import type { SqlClient } from '../sql.js';
import { statement } from '../statement.js';
import { POOL_COLUMNS, type PoolRow, REQUEST_COLUMNS, type RequestRow, toPool, toRequest } from './rows.js';

/** The pool keeps its history's size (a trigger counts status changes), so no count(*). */
const SELECT_POOL_WITH_COUNT = `SELECT ${POOL_COLUMNS}, history_count FROM pools WHERE id = $1`;

const IN_HISTORY = (pool: string) =>
  `${pool} = ANY(pool_ids) AND status IN ('submitted', 'landed', 'failed')`;

/** Keyset: walks swap_requests_history_idx from the anchor's position. */
const PAGE_AFTER = statement(
  ['pool', 'pageSize', 'after'],
  (p) =>
    `SELECT ${REQUEST_COLUMNS} FROM swap_requests
      WHERE ${IN_HISTORY(p.pool)}
        AND (created_at, seq) < (SELECT created_at, seq FROM swap_requests WHERE request_id = ${p.after})
      ORDER BY created_at DESC, seq DESC LIMIT ${p.pageSize}`,
);

const PAGE_AT_OFFSET = statement(
  ['pool', 'pageSize', 'offset'],
  (p) =>
    `SELECT ${REQUEST_COLUMNS} FROM swap_requests WHERE ${IN_HISTORY(p.pool)}
      ORDER BY created_at DESC, seq DESC LIMIT ${p.pageSize} OFFSET ${p.offset}`,
);

/** A pool's settled and in-flight swaps, newest first, read with the pool from one snapshot. */
export function createPgHistory(sql: SqlClient): Pick<SwapStore, 'history'> {
  return {
    history(poolId, start, pageSize) {
      return attempt('swaps.history', () =>
        // One snapshot for the pool and the page: a settlement commits the request's status and
        // the reserves together, so a page that shows it settled comes with reserves that hold it.
        sql.transaction(async (tx) => {
          await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
          const pool = await tx.query<PoolRow & { history_count: unknown }>(SELECT_POOL_WITH_COUNT, [poolId]);
          const items =
            'after' in start
              ? await tx.query<RequestRow>(
                  PAGE_AFTER.text,
                  PAGE_AFTER.params({ pool: poolId, pageSize, after: start.after }),
                )
              : await tx.query<RequestRow>(
                  PAGE_AT_OFFSET.text,
                  PAGE_AT_OFFSET.params({ pool: poolId, pageSize, offset: (start.page - 1) * pageSize }),
                );
          const row = pool.rows[0];
          return {
            items: items.rows.map(toRequest),
            total: Number(row?.history_count ?? 0),
            pool: row ? toPool(row) : null,
          };
        }),
      );
    },
  };
}
