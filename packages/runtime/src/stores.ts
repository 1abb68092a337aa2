import {
  createPgOAuthStore,
  createPgStore,
  createPgSwapStore,
  createPgWebhookEndpointStore,
  createPgWebhookStore,
  type SqlClient,
  withSettledTransactionCache,
} from '@token-actions/adapters/edge';
import type {
  ClockPort,
  OAuthStore,
  StorePort,
  SwapStore,
  WebhookEndpointStore,
  WebhookStore,
} from '@token-actions/core';
import { meterFailures } from './observability/metered.js';
import type { ServerMetrics } from './observability/metrics.js';

/** A store behind a cache that holds a subscription until it is closed. */
export interface Cached<T> {
  readonly store: T;
  close(): Promise<void>;
}

/**
 * The read caches kept exact by change notices (PostgreSQL LISTEN), which only a long-lived Node
 * process can hold; `listeningCaches` builds them. An edge isolate passes none.
 */
export interface ListeningCaches {
  /** Verified API keys and tenants. */
  readonly apiKeys?: (store: StorePort) => Cached<StorePort>;
  /** Active OAuth access tokens (interface B's bearer check). */
  readonly accessTokens?: (store: OAuthStore) => Cached<OAuthStore>;
  /** The pool book's reads (quotes, history). */
  readonly pools?: (swaps: SwapStore) => Cached<SwapStore>;
}

export interface StoreOptions {
  readonly clock: ClockPort;
  /**
   * Concurrent writes share one statement (transaction inserts, idempotency completions, pool
   * reservations); off where a connection belongs to one request (workerd).
   */
  readonly coalesceWrites: boolean;
  /** An idempotency claim in progress this long belongs to a dead process. */
  readonly idempotencyAbandonAfterMs?: number;
  /** This process's instance lease: idempotency keys it claims are taken over once it lapses. */
  readonly instanceId?: string;
  readonly caches?: ListeningCaches;
  /** Counts every store call that fails because the database is down (`/metrics`). */
  readonly metrics?: Pick<ServerMetrics, 'databaseErrors'>;
}

/** Every store of a process over its database, each wrapped once. */
export interface Stores {
  readonly store: StorePort;
  readonly swaps: SwapStore;
  readonly webhooks: WebhookStore;
  readonly webhookEndpoints: WebhookEndpointStore;
  readonly oauth: OAuthStore;
  /** Ends the caches' subscriptions. */
  close(): Promise<void>;
}

/**
 * The stores of one process, and the only place they are wrapped. Innermost first:
 *
 * 1. the PostgreSQL adapter, coalescing concurrent writes when `coalesceWrites`;
 * 2. the settled-transaction cache (transaction store only): a finalized, failed or expired
 *    transaction never changes again, so it is served from memory in any process;
 * 3. the listening caches (API keys, OAuth access tokens, the pool book) when the process holds
 *    them: they answer hits without a query, so they sit outside the adapter;
 * 4. failure metering, outermost, so it counts the failures the use-cases see and a cache hit
 *    (which cannot fail) costs it nothing.
 *
 * The OAuth and webhook-endpoint stores are not metered: their failures answer the caller directly.
 */
export function composeStores(sql: SqlClient, options: StoreOptions): Stores {
  const { clock, caches, metrics } = options;
  const closers: Array<() => Promise<void>> = [];
  const cached = <T>(store: T, cache: ((store: T) => Cached<T>) | undefined): T => {
    if (!cache) return store;
    const layer = cache(store);
    closers.push(layer.close);
    return layer.store;
  };
  const metered = <T extends object>(store: T, prefix?: string): T =>
    metrics ? meterFailures(store, metrics.databaseErrors, prefix) : store;

  const pgStore = createPgStore(sql, {
    clock,
    coalesceWrites: options.coalesceWrites,
    ...(options.idempotencyAbandonAfterMs !== undefined
      ? { idempotencyAbandonAfterMs: options.idempotencyAbandonAfterMs }
      : {}),
    ...(options.instanceId ? { instanceId: options.instanceId } : {}),
  });
  const store = metered(cached(withSettledTransactionCache(pgStore), caches?.apiKeys));
  const pgSwaps = createPgSwapStore(sql, { clock, coalescing: options.coalesceWrites });
  const swaps = metered(cached(pgSwaps, caches?.pools), 'swaps');
  return {
    store,
    swaps,
    webhooks: metered(createPgWebhookStore(sql), 'webhooks'),
    webhookEndpoints: createPgWebhookEndpointStore(sql),
    oauth: cached(createPgOAuthStore(sql), caches?.accessTokens),
    async close() {
      for (const close of closers.splice(0).reverse()) await close();
    },
  };
}
