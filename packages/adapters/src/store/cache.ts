import {
  type ApiKeyRecord,
  Recent,
  type Signature,
  type StorePort,
  TERMINAL_STATUSES,
  type TenantId,
  type TenantRecord,
  type TransactionRecord,
} from '@token-actions/core';
import { okAsync } from 'neverthrow';

/**
 * Serves reads of settled transactions from memory. A transaction in a terminal status
 * (finalized, failed, expired) never changes again, so caching it is safe across any number of
 * processes sharing the database; everything else is read through. Tenant scoping applies to
 * hits as it does to the store: another tenant's cached record is absent.
 */
export function withSettledTransactionCache(store: StorePort, maxEntries = 20_000): StorePort {
  const settled = new Recent<string, TransactionRecord>(maxEntries);
  const remember = (record: TransactionRecord | null) => {
    if (record && TERMINAL_STATUSES.has(record.status)) settled.remember(record.id, record);
    return record;
  };
  return {
    ...store,
    transactions: {
      ...store.transactions,
      get(id: Signature, tenant?: TenantId) {
        const hit = settled.get(id);
        if (hit) return okAsync(tenant === undefined || hit.tenant === tenant ? hit : null);
        return store.transactions.get(id, tenant).map(remember);
      },
    },
  };
}

/** Change notices between processes: `key:<id>`, `tenant:<id>`, or a reset when notices may have been lost. */
export interface KeyChangeHandlers {
  onNotice(payload: string): void;
  onReset(): void;
}

export type NoticeSubscription = (handlers: KeyChangeHandlers) => Promise<() => Promise<void>>;

/**
 * When a read-through cache fed by change notices may keep what it read: only a read that began
 * while the notices were being received (a change committed before the LISTEN was up would never
 * evict it) and that no change, reset or own write overtook while it was in flight. The
 * subscription starts on first use; without one the process is the only writer and every read
 * may be kept. Shared by the API-key and the pool-book caches.
 */
export interface NoticeGate {
  /** Subscribes on first use. */
  start(): void;
  /** A token for a read about to begin. */
  begin(): number;
  /** Whether the read that began at `token` may be kept. */
  mayKeep(token: number): boolean;
  /** Nothing read before this may be kept (a write of this process's own). */
  bump(): void;
  close(): Promise<void>;
}

export function createNoticeGate(
  subscribe: NoticeSubscription | undefined,
  on: KeyChangeHandlers,
): NoticeGate {
  let generation = 0;
  let live = subscribe === undefined;
  let subscription: Promise<(() => Promise<void>) | undefined> | undefined;
  return {
    start() {
      if (subscription || !subscribe) return;
      subscription = subscribe({
        onNotice(payload) {
          generation++;
          on.onNotice(payload);
        },
        onReset() {
          generation++;
          on.onReset();
        },
      })
        .then((stop) => {
          generation++;
          live = true;
          return stop;
        })
        // Without notices nothing is kept: every read goes to the store.
        .catch(() => undefined);
    },
    begin: () => (live ? generation : -1),
    mayKeep: (token) => token >= 0 && token === generation,
    bump() {
      generation++;
    },
    async close() {
      const stop = await subscription;
      await stop?.();
    },
  };
}

/** Values kept for `ttlMs` each, at most `maxEntries` of them (all are dropped when full). */
export interface TtlEntries<T> {
  /** The value, while it is fresh. */
  get(key: string): T | undefined;
  set(key: string, value: T): void;
  delete(key: string): void;
  /** Drops every entry whose value matches (a key revoked by id, a grant's tokens). */
  deleteWhere(match: (value: T) => boolean): void;
  clear(): void;
}

export function createTtlEntries<T>(ttlMs: number, maxEntries: number, now: () => number): TtlEntries<T> {
  const entries = new Map<string, { value: T; until: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      return entry && entry.until > now() ? entry.value : undefined;
    },
    set(key, value) {
      if (entries.size >= maxEntries) entries.clear();
      entries.set(key, { value, until: now() + ttlMs });
    },
    delete: (key) => entries.delete(key),
    deleteWhere(match) {
      for (const [key, entry] of entries) if (match(entry.value)) entries.delete(key);
    },
    clear: () => entries.clear(),
  };
}

export interface ApiKeyCacheOptions {
  /** How long a verified key (or a tenant) is served from memory. Default 1 s: the bound on how
   * stale a revocation can be even when no change notice arrives. */
  readonly ttlMs?: number;
  readonly maxEntries?: number;
  /** Subscribes to the notices of every process (PostgreSQL LISTEN); started on first use. */
  readonly subscribe?: NoticeSubscription;
  readonly now?: () => number;
}

/**
 * Keeps API-key verification off the database on the hot path without serving a revoked key:
 * entries live `ttlMs`, this process's revocations and expiries evict at once, and notices from
 * other processes (the pg store notifies in the statement that revokes) evict within
 * milliseconds. Only keys and tenants are cached, never a miss.
 */
export function withApiKeyCache(
  store: StorePort,
  options: ApiKeyCacheOptions = {},
): { store: StorePort; close(): Promise<void> } {
  const ttlMs = options.ttlMs ?? 1_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const keys = createTtlEntries<ApiKeyRecord>(ttlMs, maxEntries, now);
  const tenants = createTtlEntries<TenantRecord>(ttlMs, maxEntries, now);
  const evictKey = (id: string) => keys.deleteWhere((record) => record.id === id);

  const gate = createNoticeGate(options.subscribe, {
    onNotice(payload) {
      if (payload.startsWith('key:')) evictKey(payload.slice(4));
      else if (payload.startsWith('tenant:')) tenants.delete(payload.slice(7));
    },
    onReset() {
      keys.clear();
      tenants.clear();
    },
  });

  const apiKeys: StorePort['apiKeys'] = {
    ...store.apiKeys,
    findByHash(hash) {
      gate.start();
      const hit = keys.get(hash);
      if (hit) return okAsync({ ...hit });
      const at = gate.begin();
      return store.apiKeys.findByHash(hash).map((record) => {
        if (record && gate.mayKeep(at)) keys.set(hash, record);
        else keys.delete(hash);
        return record;
      });
    },
    revoke(id, at) {
      return store.apiKeys.revoke(id, at).map((record) => {
        gate.bump();
        evictKey(id);
        return record;
      });
    },
    expire(id, at) {
      return store.apiKeys.expire(id, at).map((record) => {
        gate.bump();
        evictKey(id);
        return record;
      });
    },
  };

  const tenantStore: StorePort['tenants'] = {
    ...store.tenants,
    get(id) {
      gate.start();
      const hit = tenants.get(id);
      if (hit) return okAsync(hit);
      const at = gate.begin();
      return store.tenants.get(id).map((record) => {
        if (record && gate.mayKeep(at)) tenants.set(id, record);
        return record;
      });
    },
    update(id, patch) {
      return store.tenants.update(id, patch).map((record) => {
        gate.bump();
        tenants.delete(id);
        return record;
      });
    },
  };

  return {
    store: { ...store, apiKeys, tenants: tenantStore },
    close: () => gate.close(),
  };
}
