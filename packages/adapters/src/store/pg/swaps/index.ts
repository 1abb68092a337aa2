import {
  type DomainError,
  domainError,
  isDomainError,
  type NewSwapRequest,
  overPromisedError,
  type PublicKey,
  type ReservationPlan,
  releaseHops,
  reservationLimitError,
  reserveHops,
  type SwapRequestRecord,
  type SwapStore,
  withTransaction,
} from '@token-actions/core';
import { ResultAsync } from 'neverthrow';
import { coalesce, type Join, oneByOne } from '../coalesce.js';
import { attempt, storeFailure } from '../failure.js';
import type { SqlClient, SqlExecutor } from '../sql.js';
import { POOL_COLUMNS, REQUEST_COLUMNS, type Row, requestParams, toHops, toPool, toRequest } from './rows.js';

/** A plan's refusal travels out of the SQL transaction as this, so the transaction rolls back. */
class PlanRefused extends Error {
  constructor(readonly domain: DomainError) {
    super(domain.message);
  }
}

type ReserveInput = Parameters<SwapStore['reserve']>[0];

/** Reservations per batch: 31 parameters per inserted row, far below PostgreSQL's 65,535. */
const MAX_RESERVE_BATCH = 128;

const poolNotOpen = () => domainError('INSUFFICIENT_LIQUIDITY', 'a pool of the route is not open');

function reserveError(error: unknown): DomainError {
  if (error instanceof PlanRefused) return error.domain;
  if (isDomainError(error)) return error;
  // A CHECK violation means a reservation would exceed the reserve: refuse, never over-promise.
  if ((error as { code?: string })?.code === '23514') return overPromisedError();
  return storeFailure('swaps.reserve')(error);
}

/** The placeholders of one swap_requests row (REQUEST_COLUMNS, then pool_ids) from `$first`. */
function requestRowPlaceholders(first: number): string {
  return `(${Array.from({ length: 31 }, (_, i) => `$${first + i}${REQUEST_JSONB.has(i + 1) ? '::jsonb' : ''}`).join(',')})`;
}

/** The positions (from 1) of the jsonb columns in a swap_requests row: hops, signers, presigned. */
const REQUEST_JSONB = new Set([14, 18, 19]);

/**
 * One client's reservations queue on a transaction-scoped lock, so concurrent quotes each count
 * the ones committed before them and the cap holds exactly. Several clients lock in id order.
 */
async function lockClients(tx: SqlExecutor, clients: readonly string[]): Promise<void> {
  await tx.query(
    `SELECT pg_advisory_xact_lock(hashtextextended('swap-client:' || c.id, 0))
       FROM unnest($1::text[]) WITH ORDINALITY AS c(id, n) ORDER BY c.n`,
    [clients],
  );
}

/** Open (prepared, unexpired) quotes per client; swap_requests_client_open_idx serves it. */
async function openByClient(
  tx: SqlExecutor,
  clients: readonly string[],
  at: Date,
): Promise<Map<string, number>> {
  const open = await tx.query<{ client_id: string; n: string }>(
    `SELECT client_id, count(*) AS n FROM swap_requests
      WHERE client_id = ANY($1::text[]) AND status = 'prepared' AND expires_at > $2
      GROUP BY client_id`,
    [clients, at],
  );
  return new Map(open.rows.map((row) => [row.client_id, Number(row.n)]));
}

function preparedRecord(request: NewSwapRequest, plan: ReservationPlan, at: Date): SwapRequestRecord {
  return { ...request, ...plan, hops: [...plan.hops], status: 'prepared', createdAt: at, updatedAt: at };
}

/**
 * The pool book over the pg dialect. A reservation locks its pools `FOR UPDATE` (in id order, so
 * two routes over the same pools cannot deadlock) and prices on what it reads under the lock, so
 * concurrent quotes on one pool are serialised and none can promise what another already has.
 */
export function createPgSwapStore(
  sql: SqlClient,
  options: {
    clock?: { now(): Date };
    /** Concurrent reservations share one transaction (see `reserveMany`); the Node service's setting. */
    coalescing?: boolean;
  } = {},
): SwapStore {
  const now = () => options.clock?.now() ?? new Date();

  /** The statement text and parameters that insert request rows, many at once, from `$first`. */
  const insertRequestsSql = (records: readonly SwapRequestRecord[], first = 1) => {
    const params: unknown[] = [];
    const rows = records.map((r) => {
      const row = requestRowPlaceholders(first + params.length);
      params.push(...requestParams(r));
      return row;
    });
    return {
      text: `INSERT INTO swap_requests (${REQUEST_COLUMNS}, pool_ids) VALUES ${rows.join(', ')}`,
      params,
    };
  };
  const insertRequest = (db: SqlExecutor, r: SwapRequestRecord) => {
    const { text, params } = insertRequestsSql([r]);
    return db.query(text, params);
  };

  /**
   * Reservations in one transaction (one, or several that arrived together): the clients' locks and
   * the pools' row locks are taken once, each reservation is planned in arrival order against the
   * book as the ones before it left it (in memory, exactly as it would have read it after their
   * commits), and one statement writes the pools and inserts the requests. A refused plan fails
   * only its own reservation. Two round trips, the connection pipelining: BEGIN, the clients'
   * locks and the pools' locks with the clients' open-quote counts; then the write with the
   * COMMIT. With `join`, quotes queued meanwhile may join it once the locks are held.
   */
  const reserveInOne = (given: readonly ReserveInput[], join?: Join<ReserveInput>) =>
    sql.transaction(async (tx): Promise<PromiseSettledResult<SwapRequestRecord>[]> => {
      const inputs = [...given];
      const capped = [
        ...new Set(inputs.filter((i) => i.maxOpenPerClient !== undefined).map((i) => i.request.clientId)),
      ].sort();
      // The counts are read after the clients' locks are held, so every quote committed by a
      // reservation of the same client before them is counted. The two statements go out
      // together: the connection runs them in order, and under READ COMMITTED the second takes
      // its snapshot when it starts, after the first has waited for the locks.
      const ids = [...new Set(inputs.flatMap((i) => i.poolIds))].sort();
      const [, locked] = await Promise.all([
        capped.length > 0 ? lockClients(tx, capped) : undefined,
        tx.query<Row & { open: Record<string, number> | null }>(
          `SELECT ${POOL_COLUMNS},
                  (SELECT json_object_agg(c.client_id, c.n) FROM (
                     SELECT client_id, count(*) AS n FROM swap_requests
                      WHERE client_id = ANY($2::text[]) AND status = 'prepared' AND expires_at > $3
                      GROUP BY client_id) c) AS open
             FROM pools WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE OF pools`,
          [ids, capped, now()],
        ),
      ]);
      const book = new Map(locked.rows.map((row) => [String(row.id), toPool(row)]));
      // Quotes that came in while the locks were being taken join this batch when it already holds
      // all they need: their pools, and their client's lock if they are capped. Under load a quote
      // that just missed a batch would otherwise run a transaction of its own.
      if (join) {
        inputs.push(
          ...join(
            (i) =>
              i.poolIds.every((id) => book.has(id)) &&
              (i.maxOpenPerClient === undefined || capped.includes(i.request.clientId)),
          ),
        );
      }
      const counted =
        locked.rows.length > 0 || capped.length === 0
          ? Object.entries(locked.rows[0]?.open ?? {}).map(([client, n]) => [client, Number(n)] as const)
          : await openByClient(tx, capped, now());
      const open = new Map<string, number>(counted);
      const at = now();
      const answers: PromiseSettledResult<SwapRequestRecord>[] = [];
      const accepted: { slot: number; record: SwapRequestRecord; build: ReserveInput['build'] }[] = [];
      const refuse = (error: DomainError) =>
        answers.push({ status: 'rejected', reason: new PlanRefused(error) });
      for (const { request, poolIds, plan, maxOpenPerClient, build } of inputs) {
        if (maxOpenPerClient !== undefined && (open.get(request.clientId) ?? 0) >= maxOpenPerClient) {
          refuse(reservationLimitError(maxOpenPerClient));
          continue;
        }
        const mine = [...new Set(poolIds)].sort().map((id) => book.get(id));
        if (!mine.every((pool) => pool !== undefined)) {
          refuse(poolNotOpen());
          continue;
        }
        const planned = plan(mine);
        if (planned.isErr()) {
          refuse(planned.error);
          continue;
        }
        const after = reserveHops(book, planned.value.hops, poolNotOpen);
        if (after.isErr()) {
          refuse(after.error);
          continue;
        }
        for (const pool of after.value) book.set(pool.id, pool);
        const record = preparedRecord(request, planned.value, at);
        accepted.push({ slot: answers.length, record, build });
        answers.push({ status: 'fulfilled', value: record });
        if (request.expiresAt > at) open.set(request.clientId, (open.get(request.clientId) ?? 0) + 1);
      }
      // The transactions are built while the pools stay locked, so each request commits with its
      // own. They are built side by side (against a cluster a build may read accounts over RPC). A
      // failed build books nothing: its outputs go back to the pools, and the reservations planned
      // after it promised out of less than was there, never more.
      const built = await Promise.all(accepted.map(({ record, build }) => build?.(record)));
      const records: SwapRequestRecord[] = [];
      for (const [i, { slot, record }] of accepted.entries()) {
        const transaction = built[i];
        if (transaction?.isErr()) {
          for (const pool of releaseHops(book, record.hops)) book.set(pool.id, pool);
          answers[slot] = { status: 'rejected', reason: new PlanRefused(transaction.error) };
          continue;
        }
        const stored = transaction?.isOk() ? withTransaction(record, transaction.value) : record;
        records.push(stored);
        answers[slot] = { status: 'fulfilled', value: stored };
      }
      if (records.length > 0) {
        // The pools are locked: their reserved sides are written as planned, absolutely.
        const moved = [...new Set(records.flatMap((r) => r.hops.map((h) => h.pool)))].map(
          (id) => book.get(id)!,
        );
        const insert = insertRequestsSql(records, 5);
        // Sent, not awaited: the COMMIT goes out behind it, and the callers are answered after both.
        tx.send(
          `WITH moved AS (
             UPDATE pools p SET reserved_a = n.reserved_a, reserved_b = n.reserved_b, updated_at = $4
               FROM unnest($1::text[], $2::numeric[], $3::numeric[]) AS n(id, reserved_a, reserved_b)
              WHERE p.id = n.id)
           ${insert.text}`,
          [
            moved.map((pool) => pool.id),
            moved.map((pool) => pool.reservedA.toString()),
            moved.map((pool) => pool.reservedB.toString()),
            at,
            ...insert.params,
          ],
        );
      }
      return answers;
    });

  /** One reservation on its own: its transaction's answer, or what broke it. */
  const reserveOne = async (input: ReserveInput): Promise<SwapRequestRecord> => {
    const [answer] = await reserveInOne([input]);
    if (answer!.status === 'rejected') throw answer!.reason;
    return answer!.value;
  };

  /**
   * Concurrent reservations together (group commit, like the transaction inserts). A batch that
   * fails as a whole (a lost connection, a constraint, a plan that throws) is retried one by one,
   * so each caller gets its own answer.
   */
  const reserveMany = async (
    inputs: readonly ReserveInput[],
    join: Join<ReserveInput>,
  ): Promise<PromiseSettledResult<SwapRequestRecord>[]> => {
    const all = [...inputs];
    try {
      return await reserveInOne(inputs, (fits) => {
        const joined = join(fits);
        all.push(...joined);
        return joined;
      });
    } catch (cause) {
      // A lone reservation's failure is its own answer.
      if (all.length === 1) return [{ status: 'rejected', reason: cause }];
    }
    return oneByOne(all, reserveOne);
  };
  const reserveCoalesced = options.coalescing ? coalesce(reserveMany, MAX_RESERVE_BATCH) : undefined;

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

    poolAuthority(id) {
      return attempt('pools.authority', async () => {
        const r = await sql.query<{ authority: string }>('SELECT authority FROM pools WHERE id = $1', [id]);
        return r.rows[0] ? (r.rows[0].authority as PublicKey) : null;
      });
    },

    listPools() {
      return attempt('pools.list', async () =>
        (await sql.query<Row>(`SELECT ${POOL_COLUMNS} FROM pools ORDER BY id`)).rows.map(toPool),
      );
    },

    reserve(input) {
      return ResultAsync.fromPromise((reserveCoalesced ?? reserveOne)(input), reserveError);
    },

    insertExternal(request) {
      return attempt('swaps.insertExternal', async () => {
        await insertRequest(sql, request);
        return request;
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
          // The pools' updates go out together with the COMMIT behind them (nothing is read back).
          for (const hop of hops) {
            tx.send(
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
