import {
  type ApiKeyRecord,
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
  const settled = new Map<string, TransactionRecord>();
  const remember = (record: TransactionRecord | null) => {
    if (record && TERMINAL_STATUSES.has(record.status)) {
      if (settled.size >= maxEntries) settled.delete(settled.keys().next().value as string);
      settled.set(record.id, record);
    }
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

export interface ApiKeyCacheOptions {
  /** How long a verified key (or a tenant) is served from memory. Default 1 s: the bound on how
   * stale a revocation can be even when no change notice arrives. */
  readonly ttlMs?: number;
  readonly maxEntries?: number;
  /** Subscribes to the notices of every process (PostgreSQL LISTEN); started on first use. */
  readonly subscribe?: (handlers: KeyChangeHandlers) => Promise<() => Promise<void>>;
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
  const keys = new Map<string, { record: ApiKeyRecord; until: number }>();
  const tenants = new Map<string, { record: TenantRecord; until: number }>();

  const evictKey = (id: string) => {
    for (const [hash, entry] of keys) if (entry.record.id === id) keys.delete(hash);
  };
  const put = <T>(map: Map<string, { record: T; until: number }>, key: string, record: T) => {
    if (map.size >= maxEntries) map.clear();
    map.set(key, { record, until: now() + ttlMs });
  };

  let subscription: Promise<(() => Promise<void>) | undefined> | undefined;
  // Only a read that began while notices were being received may be cached: a revocation
  // committed before the LISTEN was up would otherwise never evict what that read saw.
  let listening = !options.subscribe;
  // Bumped when notices may have been lost: a read in flight across it is not cached either.
  let generation = 0;
  const cacheableNow = () => (listening ? generation : -1);
  const stillCacheable = (at: number) => at >= 0 && at === generation;
  const subscribe = () => {
    if (subscription || !options.subscribe) return;
    subscription = options
      .subscribe({
        onNotice(payload) {
          if (payload.startsWith('key:')) evictKey(payload.slice(4));
          else if (payload.startsWith('tenant:')) tenants.delete(payload.slice(7));
        },
        onReset() {
          generation++;
          keys.clear();
          tenants.clear();
        },
      })
      .then((stop) => {
        listening = true;
        return stop;
      })
      // Without notices nothing is cached: every read goes to the store.
      .catch(() => undefined);
  };

  const apiKeys: StorePort['apiKeys'] = {
    ...store.apiKeys,
    findByHash(hash) {
      subscribe();
      const hit = keys.get(hash);
      if (hit && hit.until > now()) return okAsync({ ...hit.record });
      const at = cacheableNow();
      return store.apiKeys.findByHash(hash).map((record) => {
        if (record && stillCacheable(at)) put(keys, hash, record);
        else keys.delete(hash);
        return record;
      });
    },
    revoke(id, at) {
      return store.apiKeys.revoke(id, at).map((record) => {
        evictKey(id);
        return record;
      });
    },
    expire(id, at) {
      return store.apiKeys.expire(id, at).map((record) => {
        evictKey(id);
        return record;
      });
    },
  };

  const tenantStore: StorePort['tenants'] = {
    ...store.tenants,
    get(id) {
      subscribe();
      const hit = tenants.get(id);
      if (hit && hit.until > now()) return okAsync(hit.record);
      const at = cacheableNow();
      return store.tenants.get(id).map((record) => {
        if (record && stillCacheable(at)) put(tenants, id, record);
        return record;
      });
    },
    update(id, patch) {
      return store.tenants.update(id, patch).map((record) => {
        tenants.delete(id);
        return record;
      });
    },
  };

  return {
    store: { ...store, apiKeys, tenants: tenantStore },
    async close() {
      const stop = await subscription;
      await stop?.();
    },
  };
}
