import {
  createMemoryRateLimiter,
  createPgTransactionStats,
  createRedisRateLimiter,
  type SqlClient,
} from '@token-actions/adapters';
import type { Localnet } from '@token-actions/localnet';
import { Redis } from 'ioredis';
import type { AppParts, ReadinessProbes } from '../app-parts.js';
import type { CoreConfig } from '../config/fragments.js';
import type { RuntimeLogger } from '../logger.js';
import type { RunningLoops } from '../loops.js';
import { composeNodePorts, openNodeProcess, startNodeLoops } from '../node-process.js';
import { createServerMetrics, type ServerMetrics } from '../observability/metrics.js';

/** The server's settings composition reads: the shared fragments, Redis and the inbound webhook secret. */
export type ServerCompositionConfig = CoreConfig & {
  /** Rate limits exact across processes in Redis; in memory (per process) without it. */
  readonly REDIS_URL?: string | undefined;
  /** Standard Webhooks secret of the inbound completion notification. */
  readonly WEBHOOK_SECRET?: string | undefined;
};

export interface ServerComposition extends AppParts {
  readonly sql: SqlClient;
  /** The embedded localnet, when the chain is one (tests advance its slots). */
  readonly localnet?: Localnet;
  /** The Prometheus instruments; the chain, the stores and the webhook sender count on them. */
  readonly metrics: ServerMetrics;
  readonly readiness: ReadinessProbes;
  /** The background loops on a timer, in this process (RUN_WORKER). */
  startLoops(): RunningLoops;
  close(): Promise<void>;
}

/**
 * The Node server's composition, used by its entry (`startServer`): the process's database,
 * master key, lease and chain; the metrics; every store wrapped once (see `composeStores`) with
 * the listening caches a server keeps (API keys, access tokens, the pool book) and failure
 * metering; the swap side, seeding a localnet's pools; the rate limiter; the readiness probes.
 */
export async function composeServer(
  config: ServerCompositionConfig,
  logger: RuntimeLogger,
): Promise<ServerComposition> {
  const node = await openNodeProcess(config, logger);
  const { sql } = node;
  const metrics = createServerMetrics({ outbox: createPgTransactionStats(sql) });
  const { deps, swaps, stores } = await composeNodePorts(node, {
    config,
    logger,
    seedPools: true,
    metrics,
    serving: true,
  });
  // Redis makes the limit exact across processes; in memory it is per process.
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false })
    : undefined;
  const rateLimiter = redis ? createRedisRateLimiter(redis) : createMemoryRateLimiter();

  return {
    deps,
    sql,
    isLocalnet: node.chain.isLocalnet,
    ...(node.chain.localnet
      ? { localnet: node.chain.localnet, genesisHash: node.chain.localnet.genesisHash }
      : {}),
    oauthStore: stores.oauth,
    rateLimiter,
    swaps,
    metrics,
    readiness: {
      database: () => sql.query('SELECT 1'),
      chain: async () => {
        const height = await deps.chain.getBlockHeight();
        if (height.isErr()) throw new Error(height.error.message);
      },
    },
    webhookEndpoints: {
      store: swaps.webhookEndpoints,
      outbound: swaps.webhookUrls,
      deliveries: swaps.deps.webhooks,
      secretFor: swaps.endpointSecretFor,
    },
    startLoops: () => startNodeLoops({ deps, swaps }, config, logger),
    async close() {
      redis?.disconnect();
      await stores.close();
      await node.close();
    },
  };
}
