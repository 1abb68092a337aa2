import {
  createJupiterAggregator,
  createLocalAggregator,
  createOutboundGuard,
  createPgSwapStore,
  createPgWebhookEndpointStore,
  createPgWebhookStore,
  createWebhookSender,
  deriveClientWebhookSecret,
  deriveKey,
  type OutboundGuard,
  POOL_CHANGES_CHANNEL,
  withPoolCache,
} from '@token-actions/adapters/edge';
import {
  type ActionDeps,
  DEFAULT_SWAP_POLICIES,
  ENDPOINT_SIGNER_PREFIX,
  type OAuthStore,
  type PoolSeed,
  parseAmount,
  type SwapDeps,
  seedPools,
  type WebhookEndpointStore,
} from '@token-actions/core';
import type { SwapConfig } from './config/fragments.js';
import type { CoreComposition } from './core.js';
import type { RuntimeLogger } from './logger.js';

export interface SwapComposition {
  readonly deps: SwapDeps;
  /** The per-client secret outbound notifications are signed with (`whsec_...`). */
  webhookSecretFor(clientId: string): string;
  /** The SSRF guard of webhook URLs: registration checks them with it, delivery connects through it. */
  readonly webhookUrls: OutboundGuard;
  /** Stops listening for the pool book's change notices (when the book is cached). */
  close(): Promise<void>;
  /** Tenants' interface A endpoints and the outbox of their transactions' status changes. */
  readonly webhookEndpoints: WebhookEndpointStore;
  /** The secret deliveries to one interface A endpoint are signed with (`whsec_...`). */
  endpointSecretFor(endpointId: string): string;
}

function seedsOf(config: SwapConfig, deps: ActionDeps): PoolSeed[] {
  const { native, stable, project } = deps.currencies;
  const pairs = [
    [native, stable, config.POOL_NATIVE_STABLE_SEED],
    [native, project, config.POOL_NATIVE_PROJECT_SEED],
    [stable, project, config.POOL_STABLE_PROJECT_SEED],
  ] as const;
  return pairs.map(([a, b, text]) => {
    const [ra, rb] = text.split(':') as [string, string];
    const reserve = (value: string, currency: typeof a) => {
      const parsed = parseAmount(value, currency);
      if (parsed.isErr()) throw new Error(`pool seed ${a.code}-${b.code}: ${parsed.error.message}`);
      return parsed.value;
    };
    return {
      tokenA: a.code,
      tokenB: b.code,
      reserveA: reserve(ra, a),
      reserveB: reserve(rb, b),
      feeBps: config.POOL_FEE_BPS,
    };
  });
}

/**
 * The swap side of the composition root: pool book and webhook tables on the same database, the
 * aggregator (local pools by default), the signed webhook sender, and the pools seeded on a
 * localnet if they are not booked yet.
 */
export async function composeSwaps(input: {
  config: SwapConfig;
  core: Pick<CoreComposition, 'deps' | 'sql' | 'masterKey' | 'isLocalnet'>;
  /** Where the OAuth clients (and their webhook URLs) live; the server shares its own. */
  oauthStore: OAuthStore;
  logger: RuntimeLogger;
  /** Seed the localnet's pools if they are not booked yet: the server does, a standalone worker does not. */
  seedPools: boolean;
  /**
   * Serve the pool book's reads (quotes, history) from memory, kept exact by LISTEN/NOTIFY: a
   * long-lived server does; an edge isolate (no listening connection) and the worker do not.
   */
  cachePools?: boolean;
  /** Concurrent reservations share one transaction (default); not on the edge, whose
   * connections belong to one request. */
  coalesceWrites?: boolean;
}): Promise<SwapComposition> {
  const { config, core } = input;
  const { deps, sql } = core;
  const book = createPgSwapStore(sql, { clock: deps.clock, coalescing: input.coalesceWrites ?? true });
  const cache =
    input.cachePools && sql.listen
      ? withPoolCache(book, { subscribe: (handlers) => sql.listen!(POOL_CHANGES_CHANNEL, handlers) })
      : undefined;
  const swaps = cache?.swaps ?? book;
  const webhookKey = deriveKey(core.masterKey, 'webhook-signing');
  const webhookSecretFor = (clientId: string) => deriveClientWebhookSecret(webhookKey, clientId);
  // Interface A endpoints sign under a key of their own, so no OAuth client id can name their secret.
  const endpointKey = deriveKey(core.masterKey, 'tenant-webhook-signing');
  const endpointSecretFor = (endpointId: string) => deriveClientWebhookSecret(endpointKey, endpointId);
  const secretFor = (signer: string) =>
    signer.startsWith(ENDPOINT_SIGNER_PREFIX)
      ? endpointSecretFor(signer.slice(ENDPOINT_SIGNER_PREFIX.length))
      : webhookSecretFor(signer);
  const webhookUrls = createOutboundGuard({ allowPrivate: config.WEBHOOK_ALLOW_PRIVATE });
  const base: Omit<SwapDeps, 'aggregator'> = {
    chain: deps.chain,
    keystore: deps.keystore,
    store: deps.store,
    fees: deps.fees,
    clock: deps.clock,
    ids: deps.ids,
    currencies: deps.currencies,
    swaps,
    webhooks: createPgWebhookStore(sql),
    clients: input.oauthStore.clients,
    webhookSender: createWebhookSender({ guard: webhookUrls, secretFor }),
    swapPolicies: {
      ...DEFAULT_SWAP_POLICIES,
      quoteTtlMs: config.SWAP_QUOTE_TTL_MS,
      maxOpenQuotesPerClient: config.SWAP_MAX_OPEN_QUOTES_PER_CLIENT,
      webhookMaxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
      webhookRetryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
    },
  };
  const aggregator =
    config.AGGREGATOR === 'jupiter'
      ? createJupiterAggregator({
          baseUrl: config.JUPITER_BASE_URL,
          fetch,
          ...(config.JUPITER_API_KEY ? { apiKey: config.JUPITER_API_KEY } : {}),
        })
      : createLocalAggregator(base);
  const swapDeps: SwapDeps = { ...base, aggregator };
  if (core.isLocalnet && input.seedPools) {
    const seeded = await seedPools(swapDeps, seedsOf(config, deps), {
      feeBufferLamports: BigInt(config.POOL_FEE_BUFFER_SOL) * 1_000_000_000n,
    });
    if (seeded.isErr())
      input.logger.warn({ code: seeded.error.code, message: seeded.error.message }, 'pool seeding failed');
    else if (seeded.value.created.length > 0)
      input.logger.info({ pools: seeded.value.created }, 'pools seeded');
  }
  return {
    deps: swapDeps,
    webhookSecretFor,
    webhookUrls,
    close: async () => {
      await cache?.close();
    },
    webhookEndpoints: createPgWebhookEndpointStore(sql),
    endpointSecretFor,
  };
}
