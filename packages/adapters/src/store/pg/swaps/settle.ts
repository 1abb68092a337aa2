import type { SwapStore } from '@token-actions/core';
import { attempt } from '../failure.js';
import type { SqlClient } from '../sql.js';
import { statement } from '../statement.js';
import { toHops } from './rows.js';

/** The compare-and-set decides who settles; the loser changes nothing. */
const SETTLE_REQUEST = statement(
  ['requestId', 'outcome', 'error', 'at'],
  (p) =>
    `UPDATE swap_requests SET status = ${p.outcome}, error = COALESCE(${p.error}, error), updated_at = ${p.at}
     WHERE request_id = ${p.requestId} AND status IN ('prepared', 'submitted') RETURNING hops`,
);

/**
 * One hop settled in its pool: the reservation of its output is dropped either way, and only when
 * it landed does the input come in and the output go out of the reserves.
 */
const SETTLE_HOP = statement(
  ['pool', 'outputToken', 'inputToken', 'inAmount', 'landed', 'outAmount', 'at'],
  (p) =>
    `UPDATE pools SET
       reserve_a = reserve_a
         + CASE WHEN ${p.landed} AND token_a = ${p.inputToken} THEN ${p.inAmount}::numeric ELSE 0 END
         - CASE WHEN ${p.landed} AND token_a = ${p.outputToken} THEN ${p.outAmount}::numeric ELSE 0 END,
       reserve_b = reserve_b
         + CASE WHEN ${p.landed} AND token_b = ${p.inputToken} THEN ${p.inAmount}::numeric ELSE 0 END
         - CASE WHEN ${p.landed} AND token_b = ${p.outputToken} THEN ${p.outAmount}::numeric ELSE 0 END,
       reserved_a = reserved_a - CASE WHEN token_a = ${p.outputToken} THEN ${p.outAmount}::numeric ELSE 0 END,
       reserved_b = reserved_b - CASE WHEN token_b = ${p.outputToken} THEN ${p.outAmount}::numeric ELSE 0 END,
       updated_at = ${p.at}
     WHERE id = ${p.pool}`,
);

/** A request's settlement and its pools' books, in one transaction. */
export function createPgSettlement(sql: SqlClient, now: () => Date): Pick<SwapStore, 'settle'> {
  return {
    settle(requestId, outcome, detail) {
      return attempt('swaps.settle', () =>
        sql.transaction(async (tx) => {
          const at = now();
          const moved = await tx.query<{ hops: unknown }>(
            SETTLE_REQUEST.text,
            SETTLE_REQUEST.params({ requestId, outcome, error: detail?.error ?? null, at }),
          );
          const row = moved.rows[0];
          if (!row) return false;
          // In pool id order, as a reservation locks them, so the two cannot deadlock.
          const hops = toHops(row.hops).sort((a, b) => (a.pool < b.pool ? -1 : 1));
          const landed = outcome === 'landed';
          // The pools' updates go out together with the COMMIT behind them (nothing is read back).
          for (const hop of hops) {
            tx.send(
              SETTLE_HOP.text,
              SETTLE_HOP.params({
                pool: hop.pool,
                outputToken: hop.outputToken,
                inputToken: hop.inputToken,
                inAmount: hop.inAmount.toString(),
                landed,
                outAmount: hop.outAmount.toString(),
                at,
              }),
            );
          }
          return true;
        }),
      );
    },
  };
}
