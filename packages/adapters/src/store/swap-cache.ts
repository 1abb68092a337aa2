import type { DomainError, PoolRecord, PublicKey, SwapHistoryPage, SwapStore } from '@token-actions/core';
import { okAsync, type ResultAsync } from 'neverthrow';
import { createNoticeGate, createTtlEntries, type NoticeSubscription } from './cache.js';

export interface PoolCacheOptions {
  /**
   * The longest anything is served from memory. Change notices drop entries at once; this bounds
   * how stale an entry can be while the listening connection is down. Default 1 s.
   */
  readonly ttlMs?: number;
  /** History pages held at most (all are dropped when full). Default 1,000. */
  readonly maxPages?: number;
  /**
   * Subscribes to the pool book's change notices from every process sharing the database
   * (PostgreSQL LISTEN on POOL_CHANGES_CHANNEL). Without it the process must be the book's only
   * writer. Nothing is cached until the subscription is live.
   */
  readonly subscribe?: NoticeSubscription;
  readonly now?: () => number;
}

/**
 * Serves the pool book's reads (pools and pages of history) from memory, exactly: every write
 * through this store drops what is held when it returns, and every change any process commits
 * (reservations, settlements, swaps going to the chain) drops it when its notice arrives — the
 * pool table notifies from a trigger at commit. A read that was in flight across a change never
 * fills the cache (a generation counter), so a dropped state cannot come back. Reservations
 * themselves still lock the pool rows in the database; only the reads are served from here.
 *
 * A pool's authority never changes once booked, so it is kept for good, whatever changes: a firm
 * quote reads it before reserving, and under a stream of quotes the pools themselves are dropped
 * by every reservation.
 */
export function withPoolCache(
  swaps: SwapStore,
  options: PoolCacheOptions = {},
): { swaps: SwapStore; close(): Promise<void> } {
  const ttlMs = options.ttlMs ?? 1_000;
  const maxPages = options.maxPages ?? 1_000;
  const now = options.now ?? Date.now;
  const pools = createTtlEntries<PoolRecord | null>(ttlMs, Number.POSITIVE_INFINITY, now);
  const pages = createTtlEntries<SwapHistoryPage>(ttlMs, maxPages, now);
  const poolList = createTtlEntries<readonly PoolRecord[]>(ttlMs, 1, now);
  const authorities = new Map<string, PublicKey>();
  const drop = () => {
    pools.clear();
    pages.clear();
    poolList.clear();
  };
  const gate = createNoticeGate(options.subscribe, { onNotice: drop, onReset: drop });
  const invalidate = () => {
    gate.bump();
    drop();
  };

  /** Reads through `load`, keeping the answer only if nothing changed while it was read. */
  const readThrough = <T>(
    load: () => ResultAsync<T, DomainError>,
    keep: (value: T) => void,
  ): ResultAsync<T, DomainError> => {
    const at = gate.begin();
    return load().map((value) => {
      if (gate.mayKeep(at)) keep(value);
      return value;
    });
  };

  // A failed write may still have committed (a connection lost after COMMIT): drop either way.
  const afterWrite = <T>(write: ResultAsync<T, DomainError>): ResultAsync<T, DomainError> =>
    write
      .map((value) => {
        invalidate();
        return value;
      })
      .mapErr((error) => {
        invalidate();
        return error;
      });

  const pageKey = (poolId: string, pageSize: number, start: string) => `${poolId}|${pageSize}|${start}`;

  const cached: SwapStore = {
    ...swaps,
    getPool(id) {
      gate.start();
      const hit = pools.get(id);
      if (hit !== undefined) return okAsync(hit && { ...hit });
      return readThrough(
        () => swaps.getPool(id),
        (pool) => pools.set(id, pool),
      );
    },
    poolAuthority(id) {
      const known = authorities.get(id);
      if (known) return okAsync(known);
      // Not booked yet is not remembered: the pool may be booked next.
      return swaps.poolAuthority(id).map((authority) => {
        if (authority) authorities.set(id, authority);
        return authority;
      });
    },
    listPools() {
      gate.start();
      const hit = poolList.get('');
      if (hit) return okAsync(hit.map((p) => ({ ...p })));
      return readThrough(
        () => swaps.listPools(),
        (list) => poolList.set('', list),
      );
    },
    history(poolId, start, pageSize) {
      gate.start();
      const key = pageKey(poolId, pageSize, 'after' in start ? `a:${start.after}` : `p:${start.page}`);
      const hit = pages.get(key);
      if (hit) return okAsync(hit);
      // Page n after page n-1 of the same state: read by keyset from where n-1 ended.
      let from = start;
      if ('page' in start && start.page > 1) {
        const before = pages.get(pageKey(poolId, pageSize, `p:${start.page - 1}`));
        const last = before?.items.at(-1);
        if (last && before!.items.length === pageSize) from = { after: last.requestId };
      }
      return readThrough(
        () => swaps.history(poolId, from, pageSize),
        (page) => pages.set(key, page),
      );
    },
    ensurePool: (pool) => afterWrite(swaps.ensurePool(pool)),
    reserve: (input) => afterWrite(swaps.reserve(input)),
    insertExternal: (request) => afterWrite(swaps.insertExternal(request)),
    markSubmitted: (requestId, transactionId, signedWire) =>
      afterWrite(swaps.markSubmitted(requestId, transactionId, signedWire)),
    settle: (requestId, outcome, detail) => afterWrite(swaps.settle(requestId, outcome, detail)),
  };

  return {
    swaps: cached,
    close: () => gate.close(),
  };
}
