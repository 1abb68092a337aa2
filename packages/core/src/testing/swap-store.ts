import { errAsync, okAsync, type Result, ResultAsync } from 'neverthrow';
import { type DomainError, domainError } from '../errors.js';
import type { ClockPort } from '../ports/clock.js';
import {
  type PoolRecord,
  reservationLimitError,
  reserveHops,
  type SwapRequestRecord,
  type SwapStore,
  TERMINAL_SWAP_STATUSES,
  withTransaction,
} from '../ports/swap-store.js';

export interface InMemorySwapStore extends SwapStore {
  /** How many times a request was settled (landed/failed/expired): proves a settlement applied once. */
  settlements(requestId: string): number;
}

/** The pool book's state: the pools, the requests in the order they arrived, and what is building. */
interface Book {
  readonly now: () => Date;
  readonly pools: Map<string, PoolRecord>;
  readonly requests: Map<string, SwapRequestRecord>;
  readonly settleCount: Map<string, number>;
  /** Arrival order of each request, which breaks ties between requests created at the same time. */
  readonly order: Map<string, number>;
  /** Set while a reservation's transaction is being built: its pools stay locked until then. */
  building: Promise<void> | undefined;
}

// Copies keep callers from mutating what the store holds (hops, messages and wires are mutable).
const copy = (r: SwapRequestRecord): SwapRequestRecord => ({
  ...r,
  hops: r.hops.map((h) => ({ ...h })),
  ...(r.transaction
    ? { transaction: { ...r.transaction, message: new Uint8Array(r.transaction.message) } }
    : {}),
  ...(r.signedWire ? { signedWire: new Uint8Array(r.signedWire) } : {}),
});

function put(book: Book, r: SwapRequestRecord): void {
  if (!book.order.has(r.requestId)) book.order.set(r.requestId, book.order.size);
  book.requests.set(r.requestId, copy(r));
}

const byAge = (book: Book, a: SwapRequestRecord, b: SwapRequestRecord) =>
  a.createdAt.getTime() - b.createdAt.getTime() ||
  book.order.get(a.requestId)! - book.order.get(b.requestId)!;

function reserve(book: Book, input: Parameters<SwapStore['reserve']>[0]): ReturnType<SwapStore['reserve']> {
  if (book.building) {
    // Reservations queue behind it, as they would on the pg store's row locks.
    return ResultAsync.fromSafePromise<void, DomainError>(book.building).andThen(() => reserve(book, input));
  }
  const { request, poolIds, plan, maxOpenPerClient, build } = input;
  if (maxOpenPerClient !== undefined) {
    const at = book.now().getTime();
    const open = [...book.requests.values()].filter(
      (r) => r.clientId === request.clientId && r.status === 'prepared' && r.expiresAt.getTime() > at,
    ).length;
    if (open >= maxOpenPerClient) return errAsync(reservationLimitError(maxOpenPerClient));
  }
  const locked = [...new Set(poolIds)].sort().map((id) => book.pools.get(id));
  if (locked.some((p) => !p))
    return errAsync(domainError('INSUFFICIENT_LIQUIDITY', 'a pool of the route is not open'));
  if (book.requests.has(request.requestId))
    return errAsync(domainError('INVALID_INPUT', 'requestId already used'));
  const planned = plan(locked.map((p) => ({ ...p! })));
  if (planned.isErr()) return errAsync(planned.error);
  const { hops, outAmount, minOutAmount, feeAmount, priceImpactPpm } = planned.value;
  const at = book.now();
  const record: SwapRequestRecord = {
    ...request,
    hops,
    outAmount,
    minOutAmount,
    feeAmount,
    priceImpactPpm,
    status: 'prepared',
    createdAt: at,
    updatedAt: at,
  };
  /** All or nothing, and never more than a pool holds (the pg store's CHECK constraint). */
  const keep = (stored: SwapRequestRecord): Result<SwapRequestRecord, DomainError> =>
    reserveHops(book.pools, hops, (id) =>
      domainError('INSUFFICIENT_LIQUIDITY', `pool ${id} is not open`),
    ).map((after) => {
      for (const pool of after) book.pools.set(pool.id, { ...pool, updatedAt: book.now() });
      put(book, stored);
      return copy(stored);
    });
  if (!build) {
    const booked = keep(record);
    return booked.isOk() ? okAsync(booked.value) : errAsync(booked.error);
  }
  // Nothing is booked until the build succeeds; a failed build leaves no trace.
  const result = build(copy(record)).andThen((transaction) => keep(withTransaction(record, transaction)));
  const done = Promise.resolve(result).then(() => undefined);
  book.building = done;
  void done.then(() => {
    if (book.building === done) book.building = undefined;
  });
  return result;
}

/** The request's outcome booked once: its reservations released, and for a landed swap the reserves moved. */
function settle(
  book: Book,
  requestId: string,
  outcome: Parameters<SwapStore['settle']>[1],
  detail: Parameters<SwapStore['settle']>[2],
): ReturnType<SwapStore['settle']> {
  const r = book.requests.get(requestId);
  if (!r || TERMINAL_SWAP_STATUSES.has(r.status)) return okAsync(false);
  for (const hop of r.hops) {
    const pool = book.pools.get(hop.pool)!;
    const outIsA = pool.tokenA === hop.outputToken;
    const reservedOut = (outIsA ? pool.reservedA : pool.reservedB) - hop.outAmount;
    let { reserveA, reserveB } = pool;
    if (outcome === 'landed') {
      if (outIsA) {
        reserveA -= hop.outAmount;
        reserveB += hop.inAmount;
      } else {
        reserveB -= hop.outAmount;
        reserveA += hop.inAmount;
      }
    }
    book.pools.set(pool.id, {
      ...pool,
      reserveA,
      reserveB,
      ...(outIsA ? { reservedA: reservedOut } : { reservedB: reservedOut }),
      updatedAt: book.now(),
    });
  }
  put(book, {
    ...r,
    status: outcome,
    ...(detail?.error ? { error: detail.error } : {}),
    updatedAt: book.now(),
  });
  book.settleCount.set(requestId, (book.settleCount.get(requestId) ?? 0) + 1);
  return okAsync(true);
}

/** A page of the pool's swaps, newest first, by page number or after a request (keyset). */
function history(
  book: Book,
  poolId: string,
  start: Parameters<SwapStore['history']>[1],
  pageSize: number,
): ReturnType<SwapStore['history']> {
  const all = [...book.requests.values()]
    .filter((r) => r.hops.some((h) => h.pool === poolId))
    .filter((r) => r.status === 'submitted' || r.status === 'landed' || r.status === 'failed')
    .sort((a, b) => -byAge(book, a, b));
  let from: number;
  if ('after' in start) {
    const anchor = book.requests.get(start.after);
    // Keyset: everything older than the anchor, whatever the anchor's own status is now.
    from = anchor ? all.filter((r) => byAge(book, r, anchor) >= 0).length : all.length;
  } else from = (start.page - 1) * pageSize;
  const pool = book.pools.get(poolId);
  return okAsync({
    items: all.slice(from, from + pageSize).map(copy),
    total: all.length,
    pool: pool ? { ...pool } : null,
  });
}

/**
 * The pool book in memory, with the pg adapter's rules. Each method runs to completion before any
 * other starts (one JS thread, no await inside), which is what makes reserve and settle atomic;
 * a reservation with `build` books once its build succeeds, and the ones after it wait until then.
 */
export function createInMemorySwapStore(options: { clock?: ClockPort } = {}): InMemorySwapStore {
  const book: Book = {
    now: () => options.clock?.now() ?? new Date(),
    pools: new Map(),
    requests: new Map(),
    settleCount: new Map(),
    order: new Map(),
    building: undefined,
  };
  return {
    settlements: (id) => book.settleCount.get(id) ?? 0,
    ensurePool(pool) {
      const existing = book.pools.get(pool.id);
      if (existing) return okAsync({ created: false, pool: { ...existing } });
      const at = book.now();
      const record: PoolRecord = { ...pool, reservedA: 0n, reservedB: 0n, createdAt: at, updatedAt: at };
      book.pools.set(pool.id, record);
      return okAsync({ created: true, pool: { ...record } });
    },
    getPool(id) {
      const found = book.pools.get(id);
      return okAsync(found ? { ...found } : null);
    },
    poolAuthority(id) {
      return okAsync(book.pools.get(id)?.authority ?? null);
    },
    listPools() {
      return okAsync([...book.pools.values()].map((p) => ({ ...p })).sort((a, b) => (a.id < b.id ? -1 : 1)));
    },
    reserve: (input) => reserve(book, input),
    insertExternal(request) {
      if (book.requests.has(request.requestId))
        return errAsync(domainError('INVALID_INPUT', 'requestId already used'));
      put(book, request);
      return okAsync(copy(request));
    },
    get(requestId) {
      const r = book.requests.get(requestId);
      return okAsync(r ? copy(r) : null);
    },
    findByTransaction(id) {
      const r = [...book.requests.values()].find((x) => x.transactionId === id);
      return okAsync(r ? copy(r) : null);
    },
    markSubmitted(requestId, transactionId, signedWire) {
      const r = book.requests.get(requestId);
      if (r?.status !== 'prepared') return okAsync(false);
      put(book, { ...r, status: 'submitted', signedWire, transactionId, updatedAt: book.now() });
      return okAsync(true);
    },
    settle: (requestId, outcome, detail) => settle(book, requestId, outcome, detail),
    listOpen(limit) {
      return okAsync(
        [...book.requests.values()]
          .filter((r) => r.status === 'prepared' || r.status === 'submitted')
          .sort((a, b) => byAge(book, a, b))
          .slice(0, Math.max(0, limit))
          .map(copy),
      );
    },
    listDue({ blockHeight, now: at, limit }) {
      const open = [...book.requests.values()].sort((a, b) => byAge(book, a, b));
      const take = (keep: (r: SwapRequestRecord) => boolean) =>
        open.filter(keep).slice(0, Math.max(0, limit));
      return okAsync(
        [
          ...take((r) => r.status === 'submitted'),
          ...take(
            (r) =>
              r.status === 'prepared' &&
              (r.transaction
                ? r.transaction.lastValidBlockHeight < blockHeight
                : r.expiresAt.getTime() <= at.getTime()),
          ),
        ].map(copy),
      );
    },
    history: (poolId, start, pageSize) => history(book, poolId, start, pageSize),
    listUnnotified(limit) {
      return okAsync(
        [...book.requests.values()]
          .filter((r) => TERMINAL_SWAP_STATUSES.has(r.status) && !r.notifiedAt)
          .sort((a, b) => byAge(book, a, b))
          .slice(0, Math.max(0, limit))
          .map(copy),
      );
    },
    markNotified(requestId, at) {
      const r = book.requests.get(requestId);
      if (r && !r.notifiedAt) put(book, { ...r, notifiedAt: at });
      return okAsync(undefined);
    },
  };
}
