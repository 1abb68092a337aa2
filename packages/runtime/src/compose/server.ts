import {
  createMemoryRateLimiter,
  createPgOAuthStore,
  createPgTransactionStats,
  createRedisRateLimiter,
  createStandardWebhook,
  OAUTH_TOKEN_CHANGES_CHANNEL,
  type SqlClient,
  withAccessTokenCache,
} from '@token-actions/adapters';
import type { ActionDeps, OAuthStore, RateLimiterPort } from '@token-actions/core';
import { composeCore, composeSwaps } from '@token-actions/runtime';
import { Redis } from 'ioredis';
import type { ServerConfig } from './config.js';
import type { Logger } from './logger.js';
import { meterFailures, meterWebhookSender } from './observability/metered.js';
import { createServerMetrics, type ServerMetrics } from './observability/metrics.js';
import type { SwapComposition } from './swaps.js';

export interface Composition {
  readonly deps: ActionDeps;
  readonly oauthStore: OAuthStore;
  readonly rateLimiter: RateLimiterPort;
  readonly sql: SqlClient;
  readonly isLocalnet: boolean;
  /** The embedded localnet, when the chain is one. */
  readonly localnet?: Awaited<ReturnType<typeof composeCore>>['localnet'];
  readonly masterKeyGenerated: boolean;
  /** The Prometheus instruments; the chain, store and webhook ports below are counted by them. */
  readonly metrics: ServerMetrics;
  /** Pools, swaps and webhooks (issue 5). */
  readonly swaps: SwapComposition;
  close(): Promise<void>;
}

/** The server's composition root: the runtime's core (state, keys, chain) and swaps, plus OAuth and rate limits. */
export async function compose(config: ServerConfig, logger: Logger): Promise<Composition> {
  const composed = await composeCore(config, logger);
  const { sql } = composed;
  const metrics = createServerMetrics({
    outbox: createPgTransactionStats(sql),
    now: () => composed.deps.clock.now(),
  });
  // Every process that uses these ports (HTTP handlers and in-process loops alike) counts their
  // dependency failures, so chain and database outages show on /metrics wherever they hit.
  const deps: ActionDeps = {
    ...composed.deps,
    store: meterFailures(composed.deps.store, metrics.databaseErrors),
    chain: meterFailures(composed.deps.chain, metrics.chainErrors),
  };
  const core = { ...composed, deps };

  // Interface B's bearer check reads the token on every request: an active access token is
  // served from memory for at most API_KEY_CACHE_TTL_MS, and a revocation in any process reaches
  // this one at once through NOTIFY (adapters' withAccessTokenCache).
  const tokenCache = withAccessTokenCache(createPgOAuthStore(sql), {
    ttlMs: config.API_KEY_CACHE_TTL_MS,
    ...(sql.listen ? { subscribe: (handlers) => sql.listen!(OAUTH_TOKEN_CHANGES_CHANNEL, handlers) } : {}),
  });
  const oauthStore = tokenCache.store;
  // Redis makes the limit exact across processes; in memory it is per process.
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false })
    : undefined;
  const rateLimiter = redis ? createRedisRateLimiter(redis) : createMemoryRateLimiter();

  const shared = await composeSwaps({
    config,
    core,
    oauthStore,
    logger,
    seedPools: true,
    cachePools: true,
  });
  const sender = shared.deps.webhookSender;
  const swaps: SwapComposition = {
    ...shared,
    deps: {
      ...shared.deps,
      swaps: meterFailures(shared.deps.swaps, metrics.databaseErrors, 'swaps'),
      webhooks: meterFailures(shared.deps.webhooks, metrics.databaseErrors, 'webhooks'),
      ...(sender ? { webhookSender: meterWebhookSender(sender, metrics.webhookDeliveries) } : {}),
    },
    ...(config.WEBHOOK_SECRET ? { inbound: createStandardWebhook(config.WEBHOOK_SECRET) } : {}),
  };

  return {
    deps,
    oauthStore,
    rateLimiter,
    sql,
    swaps,
    isLocalnet: core.isLocalnet,
    ...(core.localnet ? { localnet: core.localnet } : {}),
    masterKeyGenerated: core.masterKeyGenerated,
    metrics,
    async close() {
      redis?.disconnect();
      await tokenCache.close();
      await shared.close();
      await composed.close();
    },
  };
}
