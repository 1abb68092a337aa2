import {
  type DomainError,
  domainError,
  isDomainError,
  reservationLimitError,
  type SwapRequestRecord,
  type SwapStore,
} from '@token-actions/core';
import { ResultAsync } from 'neverthrow';
import { attempt, storeFailure } from './failure.js';
import type { SqlClient, SqlExecutor } from './sql.js';
import {
  b64,
  POOL_COLUMNS,
  REQUEST_COLUMNS,
  type Row,
  requestParams,
  toHops,
  toPool,
  toRequest,
} from './swap-rows.js';

/** A plan's refusal travels out of the SQL transaction as this, so the transaction rolls back. */
class PlanRefused extends Error {
  constructor(readonly domain: DomainError) {
    super(domain.message);
  }
}

/**
 * The pool book over the pg dialect. A reservation locks its pools `FOR UPDATE` (in id order, so
 * two routes over the same pools cannot deadlock) and prices on what it reads under the lock, so
 * concurrent quotes on one pool are serialised and none can promise what another already has.
 */
export function createPgSwapStore(sql: SqlClient, options: { clock?: { now(): Date } } = {}): SwapStore {
  const now = () => options.clock?.now() ?? new Date();

  const insertRequest = (db: SqlExecutor, r: SwapRequestRecord) =>
    db.query(
      `INSERT INTO swap_requests (${REQUEST_COLUMNS}, pool_ids)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14::jsonb,$15,$16,$17,$18::jsonb,$19::jsonb,$20,$21,$22,$23,$24,$25,$26,$27,$28,$29,$30,$31)`,
      requestParams(r),
    );

  const getRequest = (db: SqlExecutor, id: string) =>
    db
      .query<Row>(`SELECT ${REQUEST_COLUMNS} FROM swap_requests WHERE request_id = $1`, [id])
      .then((r) => (r.rows[0] ? toRequest(r.rows[0]) : null));

  return {
    ensurePool(pool) {
      return attempt('pools.ensure', async () => {
        const at = now();
        const inserted = await sql.query<Row>(
          `INSERT INTO pools (${POOL_COLUMNS}) VALUES ($1,$2,$3,$4,$5,0,0,$6,$7,$8,$8)
           ON CONFLICT (id) DO NOTHING RETURNING ${POOL_COLUMNS}`,
          [
            pool.id,
            pool.tokenA,
            pool.tokenB,
            pool.reserveA.toString(),
            pool.reserveB.toString(),
            pool.feeBps,
            pool.authority,
            at,
          ],
        );
        if (inserted.rows[0]) return { created: true, pool: toPool(inserted.rows[0]) };
        const existing = await sql.query<Row>(`SELECT ${POOL_COLUMNS} FROM pools WHERE id = $1`, [pool.id]);
        return { created: false, pool: toPool(existing.rows[0]!) };
      });
    },

    getPool(id) {
      return attempt('pools.get', async () => {
        const r = await sql.query<Row>(`SELECT ${POOL_COLUMNS} FROM pools WHERE id = $1`, [id]);
        return r.rows[0] ? toPool(r.rows[0]) : null;
      });
    },

    listPools() {
      return attempt('pools.list', async () =>
        (await sql.query<Row>(`SELECT ${POOL_COLUMNS} FROM pools ORDER BY id`)).rows.map(toPool),
      );
    },

    reserve({ request, poolIds, plan, maxOpenPerClient }) {
      return ResultAsync.fromPromise(
        sql.transaction(async (tx) => {
          if (maxOpenPerClient !== undefined) {
            // One client's reservations queue on a transaction-scoped lock, so N concurrent quotes
            // each count the ones committed before them and the cap holds exactly.
            await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('swap-client:' || $1, 0))", [
              request.clientId,
            ]);
            // swap_requests_client_open_idx: counts this client's open quotes, nothing else.
            const open = await tx.query<{ n: string }>(
              `SELECT count(*) AS n FROM swap_requests
                WHERE client_id = $1 AND status = 'prepared' AND expires_at > $2`,
              [request.clientId, now()],
            );
            if (Number(open.rows[0]?.n ?? 0) >= maxOpenPerClient) {
              throw new PlanRefused(reservationLimitError(maxOpenPerClient));
            }
          }
          const ids = [...new Set(poolIds)].sort();
          const locked = await tx.query<Row>(
            `SELECT ${POOL_COLUMNS} FROM pools WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`,
            [ids],
          );
          if (locked.rows.length !== ids.length) {
            throw new PlanRefused(domainError('INSUFFICIENT_LIQUIDITY', 'a pool of the route is not open'));
          }
          const planned = plan(locked.rows.map(toPool));
          if (planned.isErr()) throw new PlanRefused(planned.error);
          const at = now();
          for (const hop of planned.value.hops) {
            await tx.query(
              `UPDATE pools SET
                 reserved_a = reserved_a + CASE WHEN token_a = $2 THEN $3::numeric ELSE 0 END,
                 reserved_b = reserved_b + CASE WHEN token_b = $2 THEN $3::numeric ELSE 0 END,
                 updated_at = $4
               WHERE id = $1`,
              [hop.pool, hop.outputToken, hop.outAmount.toString(), at],
            );
          }
          const record: SwapRequestRecord = {
            ...request,
            ...planned.value,
            hops: [...planned.value.hops],
            status: 'prepared',
            createdAt: at,
            updatedAt: at,
          };
          await insertRequest(tx, record);
          return record;
        }),
        (error) => {
          if (error instanceof PlanRefused) return error.domain;
          if (isDomainError(error)) return error;
          // A CHECK violation means a reservation would exceed the reserve: refuse, never over-promise.
          if ((error as { code?: string })?.code === '23514') {
            return domainError(
              'INSUFFICIENT_LIQUIDITY',
              'the pool cannot promise that much; retry with less',
            );
          }
          return storeFailure('swaps.reserve')(error);
        },
      );
    },

    insertExternal(request) {
      return attempt('swaps.insertExternal', async () => {
        await insertRequest(sql, request);
        return request;
      });
    },

    attachTransaction(requestId, t) {
      return attempt('swaps.attachTransaction', async () => {
        const r = await sql.query(
          `UPDATE swap_requests SET transaction_id = $2, message = $3, signers = $4::jsonb, presigned = $5::jsonb,
             blockhash = $6, last_valid_block_height = $7, fee_lamports = $8, compute_unit_limit = $9,
             compute_unit_price = $10, updated_at = $11
           WHERE request_id = $1 AND status = 'prepared' AND message IS NULL RETURNING 1`,
          [
            requestId,
            t.transactionId ?? null,
            t.message,
            JSON.stringify(t.signers),
            JSON.stringify(Object.fromEntries(Object.entries(t.presigned).map(([k, v]) => [k, b64(v)]))),
            t.blockhash,
            t.lastValidBlockHeight.toString(),
            t.feeLamports.toString(),
            t.computeUnitLimit,
            t.computeUnitPrice.toString(),
            now(),
          ],
        );
        return r.rows.length > 0;
      });
    },

    get(requestId) {
      return attempt('swaps.get', () => getRequest(sql, requestId));
    },

    findByTransaction(id) {
      return attempt('swaps.findByTransaction', async () => {
        const r = await sql.query<Row>(
          `SELECT ${REQUEST_COLUMNS} FROM swap_requests WHERE transaction_id = $1 ORDER BY created_at LIMIT 1`,
          [id],
        );
        return r.rows[0] ? toRequest(r.rows[0]) : null;
      });
    },

    markSubmitted(requestId, transactionId, signedWire) {
      return attempt('swaps.markSubmitted', async () => {
        const r = await sql.query(
          `UPDATE swap_requests SET status = 'submitted', transaction_id = $2, signed_wire = $3, updated_at = $4
           WHERE request_id = $1 AND status = 'prepared' RETURNING 1`,
          [requestId, transactionId, signedWire, now()],
        );
        return r.rows.length > 0;
      });
    },

    settle(requestId, outcome, detail) {
      return attempt('swaps.settle', () =>
        sql.transaction(async (tx) => {
          const at = now();
          // The compare-and-set decides who settles; the loser changes nothing.
          const moved = await tx.query<Row>(
            `UPDATE swap_requests SET status = $2, error = COALESCE($3, error), updated_at = $4
             WHERE request_id = $1 AND status IN ('prepared', 'submitted') RETURNING hops`,
            [requestId, outcome, detail?.error ?? null, at],
          );
          const row = moved.rows[0];
          if (!row) return false;
          const hops = toHops(row.hops).sort((a, b) => (a.pool < b.pool ? -1 : 1));
          const landed = outcome === 'landed';
          for (const hop of hops) {
            await tx.query(
              `UPDATE pools SET
                 reserve_a = reserve_a
                   + CASE WHEN $5 AND token_a = $3 THEN $4::numeric ELSE 0 END
                   - CASE WHEN $5 AND token_a = $2 THEN $6::numeric ELSE 0 END,
                 reserve_b = reserve_b
                   + CASE WHEN $5 AND token_b = $3 THEN $4::numeric ELSE 0 END
                   - CASE WHEN $5 AND token_b = $2 THEN $6::numeric ELSE 0 END,
                 reserved_a = reserved_a - CASE WHEN token_a = $2 THEN $6::numeric ELSE 0 END,
                 reserved_b = reserved_b - CASE WHEN token_b = $2 THEN $6::numeric ELSE 0 END,
                 updated_at = $7
               WHERE id = $1`,
              [
                hop.pool,
                hop.outputToken,
                hop.inputToken,
                hop.inAmount.toString(),
                landed,
                hop.outAmount.toString(),
                at,
              ],
            );
          }
          return true;
        }),
      );
    },

    listOpen(limit) {
      return attempt('swaps.listOpen', async () =>
        (
          await sql.query<Row>(
            `SELECT ${REQUEST_COLUMNS} FROM swap_requests WHERE status IN ('prepared', 'submitted')
             ORDER BY created_at, seq LIMIT $1`,
            [Math.max(0, Math.floor(limit))],
          )
        ).rows.map(toRequest),
      );
    },

    listDue({ blockHeight, now: at, limit }) {
      return attempt('swaps.listDue', async () => {
        const n = Math.max(0, Math.floor(limit));
        // Three index range scans (see migration 0040): pending firm quotes still inside their
        // blockhash window are not read at all.
        const r = await sql.query<Row>(
          `(SELECT ${REQUEST_COLUMNS} FROM swap_requests WHERE status = 'submitted'
             ORDER BY created_at, seq LIMIT $1)
           UNION ALL
           (SELECT ${REQUEST_COLUMNS} FROM swap_requests
             WHERE status = 'prepared' AND message IS NOT NULL AND last_valid_block_height < $2
             ORDER BY last_valid_block_height LIMIT $1)
           UNION ALL
           (SELECT ${REQUEST_COLUMNS} FROM swap_requests
             WHERE status = 'prepared' AND message IS NULL AND expires_at <= $3
             ORDER BY expires_at LIMIT $1)`,
          [n, blockHeight.toString(), at],
        );
        return r.rows.map(toRequest);
      });
    },

    history(poolId, start, pageSize) {
      return attempt('swaps.history', () =>
        // One snapshot for the pool and the page: a settlement commits the request's status and
        // the reserves together, so a page that shows it settled comes with reserves that hold it.
        sql.transaction(async (tx) => {
          await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
          const where = `$1 = ANY(pool_ids) AND status IN ('submitted', 'landed', 'failed')`;
          // The pool keeps its history's size (a trigger counts status changes), so no count(*).
          const pool = await tx.query<Row>(`SELECT ${POOL_COLUMNS}, history_count FROM pools WHERE id = $1`, [
            poolId,
          ]);
          const items =
            'after' in start
              ? // Keyset: walks swap_requests_history_idx from the anchor's position.
                await tx.query<Row>(
                  `SELECT ${REQUEST_COLUMNS} FROM swap_requests
                    WHERE ${where}
                      AND (created_at, seq) < (SELECT created_at, seq FROM swap_requests WHERE request_id = $3)
                    ORDER BY created_at DESC, seq DESC LIMIT $2`,
                  [poolId, pageSize, start.after],
                )
              : await tx.query<Row>(
                  `SELECT ${REQUEST_COLUMNS} FROM swap_requests WHERE ${where}
                    ORDER BY created_at DESC, seq DESC LIMIT $2 OFFSET $3`,
                  [poolId, pageSize, (start.page - 1) * pageSize],
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

    listUnnotified(limit) {
      return attempt('swaps.listUnnotified', async () =>
        (
          await sql.query<Row>(
            `SELECT ${REQUEST_COLUMNS} FROM swap_requests
             WHERE notified_at IS NULL AND status IN ('landed', 'failed', 'expired')
             ORDER BY created_at, seq LIMIT $1`,
            [Math.max(0, Math.floor(limit))],
          )
        ).rows.map(toRequest),
      );
    },

    markNotified(requestId, at) {
      return attempt('swaps.markNotified', async () => {
        await sql.query(
          'UPDATE swap_requests SET notified_at = $2 WHERE request_id = $1 AND notified_at IS NULL',
          [requestId, at],
        );
      });
    },
  };
}
