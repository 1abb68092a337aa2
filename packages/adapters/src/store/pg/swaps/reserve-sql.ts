import type { SwapRequestRecord } from '@token-actions/core';
import type { SqlExecutor, TransactionExecutor } from '../sql.js';
import { statement } from '../statement.js';
import type { Book, OpenCounts } from './reserve-batch.js';
import { insertRequestRows, POOL_COLUMNS, type PoolRow, toPool } from './rows.js';

/**
 * The statements of a reservation batch: the locks it takes, the open-quote counts it reads under
 * them, and the one statement that writes what it booked.
 */

/**
 * One client's reservations queue on a transaction-scoped lock, so concurrent quotes each count
 * the ones committed before them and the cap holds exactly. Several clients lock in id order.
 */
const LOCK_CLIENTS = `SELECT pg_advisory_xact_lock(hashtextextended('swap-client:' || c.id, 0))
  FROM unnest($1::text[]) WITH ORDINALITY AS c(id, n) ORDER BY c.n`;

/** Open (prepared, unexpired) quotes per client; swap_requests_client_open_idx serves it. */
const openQuotes = (clients: string, now: string) =>
  `SELECT client_id, count(*) AS n FROM swap_requests
    WHERE client_id = ANY(${clients}::text[]) AND status = 'prepared' AND expires_at > ${now}
    GROUP BY client_id`;

const OPEN_BY_CLIENT = statement(['clients', 'now'], (p) => openQuotes(p.clients, p.now));

/**
 * The pools locked `FOR UPDATE` in id order (two routes over the same pools cannot deadlock), each
 * row carrying the clients' open-quote counts so they cost no round trip of their own.
 */
const LOCK_POOLS = statement(
  ['pools', 'clients', 'now'],
  (p) =>
    `SELECT ${POOL_COLUMNS},
            (SELECT json_object_agg(c.client_id, c.n) FROM (${openQuotes(p.clients, p.now)}) c) AS open
       FROM pools WHERE id = ANY(${p.pools}::text[]) ORDER BY id FOR UPDATE OF pools`,
);

/** The pools' reserved sides written as planned, absolutely: the pools are locked. */
const MOVE_POOLS = statement(
  ['ids', 'reservedA', 'reservedB', 'at'],
  (p) =>
    `UPDATE pools p SET reserved_a = n.reserved_a, reserved_b = n.reserved_b, updated_at = ${p.at}
       FROM unnest(${p.ids}::text[], ${p.reservedA}::numeric[], ${p.reservedB}::numeric[])
         AS n(id, reserved_a, reserved_b)
      WHERE p.id = n.id`,
);

export interface LockedBatch {
  readonly book: Book;
  /** Read with the pools; undefined when no pool was locked to carry them (see `openByClient`). */
  readonly open: OpenCounts | undefined;
}

/**
 * Takes the clients' locks and the pools' row locks, and reads the pools with the clients'
 * open-quote counts. The counts are read after the clients' locks are held, so every quote
 * committed by a reservation of the same client before them is counted. The two statements go out
 * together: the connection runs them in order, and under READ COMMITTED the second takes its
 * snapshot when it starts, after the first has waited for the locks.
 */
export async function lockBatch(
  tx: SqlExecutor,
  pools: readonly string[],
  clients: readonly string[],
  now: Date,
): Promise<LockedBatch> {
  const [, locked] = await Promise.all([
    clients.length > 0 ? tx.query(LOCK_CLIENTS, [clients]) : undefined,
    tx.query<PoolRow & { open: Record<string, number> | null }>(
      LOCK_POOLS.text,
      LOCK_POOLS.params({ pools, clients, now }),
    ),
  ]);
  const book: Book = new Map(locked.rows.map((row) => [String(row.id), toPool(row)]));
  const carried = locked.rows.length > 0 || clients.length === 0;
  const open = carried
    ? new Map(Object.entries(locked.rows[0]?.open ?? {}).map(([client, n]) => [client, Number(n)] as const))
    : undefined;
  return { book, open };
}

/** The clients' open-quote counts on their own, when no locked pool row carried them. */
export async function openByClient(
  tx: SqlExecutor,
  clients: readonly string[],
  now: Date,
): Promise<OpenCounts> {
  const open = await tx.query<{ client_id: string; n: string }>(
    OPEN_BY_CLIENT.text,
    OPEN_BY_CLIENT.params({ clients, now }),
  );
  return new Map(open.rows.map((row) => [row.client_id, Number(row.n)]));
}

/**
 * Writes the booked pools and inserts the requests in one statement. Sent, not awaited: the COMMIT
 * goes out behind it, and the callers are answered after both.
 */
export function sendBatch(
  tx: TransactionExecutor,
  records: readonly SwapRequestRecord[],
  book: Book,
  at: Date,
): void {
  const moved = [...new Set(records.flatMap((r) => r.hops.map((h) => h.pool)))].map((id) => book.get(id)!);
  const insert = insertRequestRows(records, MOVE_POOLS.size + 1);
  tx.send(`WITH moved AS (${MOVE_POOLS.text}) ${insert.text}`, [
    ...MOVE_POOLS.params({
      ids: moved.map((pool) => pool.id),
      reservedA: moved.map((pool) => pool.reservedA.toString()),
      reservedB: moved.map((pool) => pool.reservedB.toString()),
      at,
    }),
    ...insert.params,
  ]);
}
