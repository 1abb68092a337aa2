import {
  createMemoryRateLimiter,
  createPgOAuthStore,
  createStandardWebhook,
  type RequestScopedSql,
} from '@token-actions/adapters/edge';
import { composeRpcChain, composeSwaps, runLoopsOnce, wireCore } from '@token-actions/runtime/edge';
import { createApp } from '../app.js';
import type { Logger } from '../logger.js';
import type { SwapComposition } from '../swaps.js';
import type { EdgeConfig } from './config.js';

export interface EdgeComposition {
  /** The app for an origin: the OAuth issuer is PUBLIC_BASE_URL, or the first request's origin. */
  app(origin: string): ReturnType<typeof createApp>;
  /** One pass of every background loop (tracking, rebroadcast, escrow expiry, swaps, webhooks). */
  runLoopsOnce(): Promise<void>;
}

/**
 * The edge composition root: the `rpc` chain, the PostgreSQL stores on request-scoped
 * connections, the master key from a binding. Built once per isolate, inside the first
 * invocation's scope (it reads the service keys). The schema is migrated from Node beforehand.
 */
export async function composeEdge(
  config: EdgeConfig,
  db: RequestScopedSql,
  logger: Logger,
): Promise<EdgeComposition> {
  const { sql } = db;
  const masterKey = config.KEYSTORE_MASTER_KEY!;
  const chain = await composeRpcChain(config, config.SOLANA_RPC_URL);
  // One request's connection may not carry another's insert: no write coalescing here.
  const deps = await wireCore({ config, sql, masterKey, chain, coalesceWrites: false });
  const oauthStore = createPgOAuthStore(sql);
  const core = { deps, sql, masterKey, isLocalnet: chain.isLocalnet };
  // Pools are seeded by a Node server on the localnet; an isolate does not race others to do it.
  const shared = await composeSwaps({
    config,
    core,
    oauthStore,
    logger,
    seedPools: false,
    coalesceWrites: false,
  });
  const swaps: SwapComposition = {
    ...shared,
    ...(config.WEBHOOK_SECRET ? { inbound: createStandardWebhook(config.WEBHOOK_SECRET) } : {}),
  };
  // Per isolate: exact only within one isolate (no Redis on the edge yet).
  const rateLimiter = createMemoryRateLimiter();

  let app: ReturnType<typeof createApp> | undefined;
  return {
    app(origin) {
      app ??= createApp({
        deps,
        logger,
        maxBodyBytes: config.MAX_BODY_BYTES,
        isLocalnet: chain.isLocalnet,
        ...(config.CORS_ALLOWED_ORIGINS ? { corsAllowedOrigins: config.CORS_ALLOWED_ORIGINS } : {}),
        interfaceB: {
          issuer: config.PUBLIC_BASE_URL ?? origin,
          oauthStore,
          rateLimiter,
          clock: deps.clock,
          logger,
          limits: {
            perClientPerMinute: config.RATE_LIMIT_PER_MINUTE,
            perAddressPerMinute: config.RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE,
          },
          ...(config.OAUTH_ADMIN_TOKEN ? { adminToken: config.OAUTH_ADMIN_TOKEN } : {}),
          accessTokenTtlSec: config.ACCESS_TOKEN_TTL_SEC,
          refreshTokenTtlSec: config.REFRESH_TOKEN_TTL_SEC,
          ...(chain.isLocalnet ? { siwsChainId: 'localnet' } : {}),
          swaps,
        },
      });
      return app;
    },
    runLoopsOnce: () =>
      runLoopsOnce(deps, {
        intervalMs: config.WORKER_INTERVAL_MS,
        logger,
        workerId: `edge-${crypto.randomUUID()}`,
        swaps: swaps.deps,
        webhookEndpoints: swaps.webhookEndpoints,
      }),
  };
}
