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

/**
 * The pool book in memory, with the pg adapter's rules. Each method runs to completion before any
 * other starts (one JS thread, no await inside), which is what makes reserve and settle atomic;
 * a reservation with `build` books once its build succeeds, and the ones after it wait until then.
 */
export function createInMemorySwapStore(options: { clock?: ClockPort } = {}): InMemorySwapStore {
  const now = () => options.clock?.now() ?? new Date();
  const pools = new Map<string, PoolRecord>();
  const requests = new Map<string, SwapRequestRecord>();
  const settleCount = new Map<string, number>();
  let sequence = 0;
  const order = new Map<string, number>();
  const copy = (r: SwapRequestRecord): SwapRequestRecord => ({
    ...r,
    hops: r.hops.map((h) => ({ ...h })),
    ...(r.transaction
      ? { transaction: { ...r.transaction, message: new Uint8Array(r.transaction.message) } }
      : {}),
    ...(r.signedWire ? { signedWire: new Uint8Array(r.signedWire) } : {}),
  });
  const put = (r: SwapRequestRecord) => {
    if (!order.has(r.requestId)) order.set(r.requestId, sequence++);
    requests.set(r.requestId, copy(r));
  };
  const byAge = (a: SwapRequestRecord, b: SwapRequestRecord) =>
    a.createdAt.getTime() - b.createdAt.getTime() || order.get(a.requestId)! - order.get(b.requestId)!;

  /** Set while a reservation's transaction is being built: its pools stay locked until then. */
  let building: Promise<void> | undefined;

  const reserve: SwapStore['reserve'] = (input) => {
    if (building) {
      // Reservations queue behind it, as they would on the pg store's row locks.
      return ResultAsync.fromSafePromise<void, DomainError>(building).andThen(() => reserve(input));
    }
    const { request, poolIds, plan, maxOpenPerClient, build } = input;
    if (maxOpenPerClient !== undefined) {
      const at = now().getTime();
      const open = [...requests.values()].filter(
        (r) => r.clientId === request.clientId && r.status === 'prepared' && r.expiresAt.getTime() > at,
      ).length;
      if (open >= maxOpenPerClient) return errAsync(reservationLimitError(maxOpenPerClient));
    }
    const locked = [...new Set(poolIds)].sort().map((id) => pools.get(id));
    if (locked.some((p) => !p))
      return errAsync(domainError('INSUFFICIENT_LIQUIDITY', 'a pool of the route is not open'));
    if (requests.has(request.requestId))
      return errAsync(domainError('INVALID_INPUT', 'requestId already used'));
    const planned = plan(locked.map((p) => ({ ...p! })));
    if (planned.isErr()) return errAsync(planned.error);
    const { hops, outAmount, minOutAmount, feeAmount, priceImpactPpm } = planned.value;
    const at = now();
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
    const book = (stored: SwapRequestRecord): Result<SwapRequestRecord, DomainError> =>
      reserveHops(pools, hops, (id) => domainError('INSUFFICIENT_LIQUIDITY', `pool ${id} is not open`)).map(
        (after) => {
          for (const pool of after) pools.set(pool.id, { ...pool, updatedAt: now() });
          put(stored);
          return copy(stored);
        },
      );
    if (!build) {
      const booked = book(record);
      return booked.isOk() ? okAsync(booked.value) : errAsync(booked.error);
    }
    // Nothing is booked until the build succeeds; a failed build leaves no trace.
    const result = build(copy(record)).andThen((transaction) => book(withTransaction(record, transaction)));
    const done = Promise.resolve(result).then(() => undefined);
    building = done;
    void done.then(() => {
      if (building === done) building = undefined;
    });
    return result;
  };

  return {
    settlements: (id) => settleCount.get(id) ?? 0,
    ensurePool(pool) {
      const existing = pools.get(pool.id);
      if (existing) return okAsync({ created: false, pool: { ...existing } });
      const at = now();
      const record: PoolRecord = { ...pool, reservedA: 0n, reservedB: 0n, createdAt: at, updatedAt: at };
      pools.set(pool.id, record);
      return okAsync({ created: true, pool: { ...record } });
    },
    getPool(id) {
      const found = pools.get(id);
      return okAsync(found ? { ...found } : null);
    },
    poolAuthority(id) {
      return okAsync(pools.get(id)?.authority ?? null);
    },
    listPools() {
      return okAsync([...pools.values()].map((p) => ({ ...p })).sort((a, b) => (a.id < b.id ? -1 : 1)));
    },
    reserve,
    insertExternal(request) {
      if (requests.has(request.requestId))
        return errAsync(domainError('INVALID_INPUT', 'requestId already used'));
      put(request);
      return okAsync(copy(request));
    },
    get(requestId) {
      const r = requests.get(requestId);
      return okAsync(r ? copy(r) : null);
    },
    findByTransaction(id) {
      const r = [...requests.values()].find((x) => x.transactionId === id);
      return okAsync(r ? copy(r) : null);
    },
    markSubmitted(requestId, transactionId, signedWire) {
      const r = requests.get(requestId);
      if (r?.status !== 'prepared') return okAsync(false);
      put({ ...r, status: 'submitted', signedWire, transactionId, updatedAt: now() });
      return okAsync(true);
    },
    settle(requestId, outcome, detail) {
      const r = requests.get(requestId);
      if (!r || TERMINAL_SWAP_STATUSES.has(r.status)) return okAsync(false);
      for (const hop of r.hops) {
        const pool = pools.get(hop.pool)!;
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
        pools.set(pool.id, {
          ...pool,
          reserveA,
          reserveB,
          ...(outIsA ? { reservedA: reservedOut } : { reservedB: reservedOut }),
          updatedAt: now(),
        });
      }
      put({ ...r, status: outcome, ...(detail?.error ? { error: detail.error } : {}), updatedAt: now() });
      settleCount.set(requestId, (settleCount.get(requestId) ?? 0) + 1);
      return okAsync(true);
    },
    listOpen(limit) {
      return okAsync(
        [...requests.values()]
          .filter((r) => r.status === 'prepared' || r.status === 'submitted')
          .sort(byAge)
          .slice(0, Math.max(0, limit))
          .map(copy),
      );
    },
    listDue({ blockHeight, now: at, limit }) {
      const open = [...requests.values()].sort(byAge);
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
    history(poolId, start, pageSize) {
      const all = [...requests.values()]
        .filter((r) => r.hops.some((h) => h.pool === poolId))
        .filter((r) => r.status === 'submitted' || r.status === 'landed' || r.status === 'failed')
        .sort((a, b) => -byAge(a, b));
      let from: number;
      if ('after' in start) {
        const anchor = requests.get(start.after);
        // Keyset: everything older than the anchor, whatever the anchor's own status is now.
        from = anchor ? all.filter((r) => byAge(r, anchor) >= 0).length : all.length;
      } else from = (start.page - 1) * pageSize;
      const pool = pools.get(poolId);
      return okAsync({
        items: all.slice(from, from + pageSize).map(copy),
        total: all.length,
        pool: pool ? { ...pool } : null,
      });
    },
    listUnnotified(limit) {
      return okAsync(
        [...requests.values()]
          .filter((r) => TERMINAL_SWAP_STATUSES.has(r.status) && !r.notifiedAt)
          .sort(byAge)
          .slice(0, Math.max(0, limit))
          .map(copy),
      );
    },
    markNotified(requestId, at) {
      const r = requests.get(requestId);
      if (r && !r.notifiedAt) put({ ...r, notifiedAt: at });
      return okAsync(undefined);
    },
  };
}
