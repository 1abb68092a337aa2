import {
  createMemoryRateLimiter,
  createPgOAuthStore,
  createRedisRateLimiter,
  createStandardWebhook,
  deriveKey,
  type SqlClient,
} from '@token-actions/adapters';
import type { ActionDeps, OAuthStore, RateLimiterPort } from '@token-actions/core';
import { composeCore, composeSwaps } from '@token-actions/worker';
import { Redis } from 'ioredis';
import type { ServerConfig } from './config.js';
import type { Logger } from './logger.js';
import type { SwapComposition } from './swaps.js';

export interface Composition {
  readonly deps: ActionDeps;
  readonly oauthStore: OAuthStore;
  readonly rateLimiter: RateLimiterPort;
  readonly sql: SqlClient;
  readonly isLocalnet: boolean;
  readonly masterKeyGenerated: boolean;
  /** Pools, swaps and webhooks (issue 5). */
  readonly swaps: SwapComposition;
  close(): Promise<void>;
}

/** The server's composition root: the shared core (state, keys, chain) plus OAuth, rate limits and swaps. */
export async function compose(config: ServerConfig, logger: Logger): Promise<Composition> {
  const core = await composeCore(config, logger);
  const { deps, sql } = core;

  const oauthStore = createPgOAuthStore(sql);
  // Redis makes the limit exact across processes; in memory it is per process.
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false })
    : undefined;
  const rateLimiter = redis ? createRedisRateLimiter(redis) : createMemoryRateLimiter();

  const shared = await composeSwaps({
    config,
    deps,
    sql,
    oauthStore,
    webhookKey: deriveKey(core.masterKey, 'webhook-signing'),
    isLocalnet: core.isLocalnet,
    logger,
    seedPools: true,
  });
  const swaps: SwapComposition = {
    ...shared,
    ...(config.WEBHOOK_SECRET ? { inbound: createStandardWebhook(config.WEBHOOK_SECRET) } : {}),
  };

  return {
    deps,
    oauthStore,
    rateLimiter,
    sql,
    swaps,
    isLocalnet: core.isLocalnet,
    masterKeyGenerated: core.masterKeyGenerated,
    async close() {
      redis?.disconnect();
      await core.close();
    },
  };
}
