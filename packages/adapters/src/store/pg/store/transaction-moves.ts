import {
  canTransition,
  domainError,
  refusedStatusMoves,
  type StatusMove,
  type StorePort,
} from '@token-actions/core';
import { errAsync, okAsync } from 'neverthrow';
import { attempt } from '../failure.js';
import type { SqlExecutor } from '../sql.js';
import { statement, valueRows, type WrittenColumn } from '../statement.js';
import { numeric } from './rows.js';

/** Status moves per statement: one parameter per move column each. */
const MAX_MOVE_BATCH = 1_000;

/**
 * A compare-and-set on the status. The event row is written by the statement that moves the
 * status, so a move and its record cannot come apart, and a lost race writes neither.
 */
const TRANSITION = statement(
  ['id', 'from', 'to', 'slot', 'error', 'at'],
  (p) =>
    `WITH moved AS (
       UPDATE transactions
          SET status = ${p.to},
              slot = COALESCE(${p.slot}::numeric, slot),
              error = COALESCE(${p.error}::text, error),
              updated_at = ${p.at}
        WHERE id = ${p.id} AND status = ${p.from}
       RETURNING id
     )
     INSERT INTO transaction_events (transaction_id, from_status, to_status, at)
     SELECT id, ${p.from}::text, ${p.to}::text, ${p.at} FROM moved
     RETURNING id`,
);

/** A row of the `moves` VALUES list, cast so the list has column types. */
const MOVE_ROW: readonly WrittenColumn<StatusMove>[] = [
  { name: 'id', cast: 'text', value: (m) => m.id },
  { name: 'from_status', cast: 'text', value: (m) => m.from },
  { name: 'to_status', cast: 'text', value: (m) => m.to },
  { name: 'slot', cast: 'numeric', value: (m) => numeric(m.patch?.slot) },
  { name: 'error', cast: 'text', value: (m) => m.patch?.error ?? null },
];

/** Many moves joined from a VALUES list (after `$1`, their time), each row still a compare-and-set. */
const moveMany = (values: string) =>
  `WITH moves (id, from_status, to_status, slot, error) AS (VALUES ${values}),
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
   SELECT id FROM moved`;

/** A transaction's status moves, each recorded in `transaction_events` by the statement that makes it. */
export function createPgTransactionMoves(
  sql: SqlExecutor,
  now: () => Date,
): Pick<StorePort['transactions'], 'transition' | 'transitionMany'> {
  return {
    transition(id, from, to, patch) {
      if (!canTransition(from, to)) {
        return errAsync(
          domainError('INVALID_STATUS_TRANSITION', `a transaction cannot move from ${from} to ${to}`),
        );
      }
      return attempt('transactions.transition', async () => {
        const moved = await sql.query(
          TRANSITION.text,
          TRANSITION.params({
            id,
            from,
            to,
            slot: numeric(patch?.slot),
            error: patch?.error ?? null,
            at: now(),
          }),
        );
        return moved.rows.length > 0;
      });
    },

    transitionMany(moves) {
      const refused = refusedStatusMoves(moves);
      if (refused) return errAsync(refused);
      if (moves.length === 0) return okAsync([]);
      // One statement per chunk, its events written by the same statement.
      return attempt('transactions.transitionMany', async () => {
        const moved = new Set<string>();
        for (let first = 0; first < moves.length; first += MAX_MOVE_BATCH) {
          const values = valueRows(MOVE_ROW, moves.slice(first, first + MAX_MOVE_BATCH), 2);
          const result = await sql.query<{ id: string }>(moveMany(values.text), [now(), ...values.params]);
          for (const row of result.rows) moved.add(String(row.id));
        }
        return moves.map((move) => moved.has(move.id));
      });
    },
  };
}
