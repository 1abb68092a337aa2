import {
  createMemoryRateLimiter,
  createRequestScopedSql,
  type WaitUntil,
} from '@token-actions/adapters/edge';
import type { AppParts } from '../app-parts.js';
import { composeRpcChain } from '../chain-rpc.js';
import type { ChainConfig, LoopConfig } from '../config/fragments.js';
import type { RuntimeLogger } from '../logger.js';
import { runLoopsOnce } from '../loops.js';
import { composePorts, type PortsConfig } from '../ports.js';

/** The bindings composition reads. The database, the cluster and the master key are required: an
 * isolate has no disk to keep a generated key, an embedded database or an embedded chain on. */
export type EdgeCompositionConfig = PortsConfig &
  LoopConfig &
  Pick<ChainConfig, 'SOLANA_CLUSTER' | 'USDC_MINT' | 'PROJECT_MINT' | 'PROJECT_TICKER'> & {
    readonly DATABASE_URL: string;
    readonly SOLANA_RPC_URL: string;
    readonly KEYSTORE_MASTER_KEY?: Uint8Array | undefined;
  };

export interface EdgeComposition extends AppParts {
  /** One pass of every background loop (tracking, rebroadcast, escrow expiry, swaps, webhooks). */
  runLoopsOnce(): Promise<void>;
}

/** An isolate's composition: every invocation runs inside its own database scope. */
export interface EdgeIsolate {
  /** Runs `use` with this invocation's connections, composing on the first call. */
  run<T>(ctx: WaitUntil, use: (composition: EdgeComposition) => Promise<T>): Promise<T>;
}

/**
 * The edge worker's composition (workerd, Cloudflare Workers), used by its entry (the server's
 * edge.ts): the `rpc` chain, the PostgreSQL stores on request-scoped connections, the master key
 * from a binding. Composed once per isolate, inside the first invocation's scope (it reads the
 * service keys); a failed composition is logged and retried by the next invocation. The schema
 * is migrated from Node beforehand.
 */
export function composeEdge(config: EdgeCompositionConfig, logger: RuntimeLogger): EdgeIsolate {
  const db = createRequestScopedSql({ connectionString: config.DATABASE_URL });
  let composition: Promise<EdgeComposition> | undefined;
  const composed = () => {
    composition ??= composeIsolate(config, db.sql, logger).catch((error: unknown) => {
      logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        'edge composition failed',
      );
      composition = undefined;
      throw error;
    });
    return composition;
  };
  return { run: (ctx, use) => db.scope(ctx, async () => use(await composed())) };
}

async function composeIsolate(
  config: EdgeCompositionConfig,
  sql: ReturnType<typeof createRequestScopedSql>['sql'],
  logger: RuntimeLogger,
): Promise<EdgeComposition> {
  const masterKey = config.KEYSTORE_MASTER_KEY;
  if (!masterKey) throw new Error('KEYSTORE_MASTER_KEY is required on the edge');
  const chain = await composeRpcChain(config, config.SOLANA_RPC_URL);
  const { deps, swaps, stores } = await composePorts({
    config,
    sql,
    masterKey,
    chain,
    logger,
    // One request's connection may not carry another's insert.
    coalesceWrites: false,
    // Pools are seeded by a Node server on the localnet; an isolate does not race others to do it.
    seedPools: false,
  });
  return {
    deps,
    isLocalnet: chain.isLocalnet,
    oauthStore: stores.oauth,
    // Per isolate: exact only within one isolate (no Redis on the edge yet).
    rateLimiter: createMemoryRateLimiter(),
    swaps,
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
