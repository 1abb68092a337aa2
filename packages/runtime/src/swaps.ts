import {
  createJupiterAggregator,
  createLocalAggregator,
  createOutboundGuard,
  createStandardWebhook,
  createWebhookSender,
  deriveClientWebhookSecret,
  deriveKey,
  type OutboundGuard,
} from '@token-actions/adapters/edge';
import {
  type ActionDeps,
  DEFAULT_SWAP_POLICIES,
  ENDPOINT_SIGNER_PREFIX,
  type PoolSeed,
  parseAmount,
  type SwapDeps,
  seedPools,
  type WebhookEndpointStore,
} from '@token-actions/core';
import type { SwapConfig } from './config/fragments.js';
import type { RuntimeLogger } from './logger.js';
import type { Stores } from './stores.js';

export interface SwapComposition {
  readonly deps: SwapDeps;
  /** The per-client secret outbound notifications are signed with (`whsec_...`). */
  webhookSecretFor(clientId: string): string;
  /** The SSRF guard of webhook URLs: registration checks them with it, delivery connects through it. */
  readonly webhookUrls: OutboundGuard;
  /** Tenants' interface A endpoints and the outbox of their transactions' status changes. */
  readonly webhookEndpoints: WebhookEndpointStore;
  /** The secret deliveries to one interface A endpoint are signed with (`whsec_...`). */
  endpointSecretFor(endpointId: string): string;
  /** Verifies an inbound completion notification when WEBHOOK_SECRET is set. */
  readonly inbound?: ReturnType<typeof createStandardWebhook>;
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
 * The swap side of a process: the aggregator (local pools by default), the signed webhook sender,
 * the inbound notification verifier, and the pools seeded on a localnet if they are not booked
 * yet. The stores come wrapped from `composeStores`.
 */
export async function composeSwaps(input: {
  config: SwapConfig & { readonly WEBHOOK_SECRET?: string | undefined };
  deps: ActionDeps;
  stores: Pick<Stores, 'swaps' | 'webhooks' | 'webhookEndpoints' | 'oauth'>;
  masterKey: Uint8Array;
  isLocalnet: boolean;
  logger: RuntimeLogger;
  /** Seed the localnet's pools if they are not booked yet: the server does; a worker or an edge
   * isolate does not race it to. */
  seedPools: boolean;
}): Promise<SwapComposition> {
  const { config, deps, stores } = input;
  const webhookKey = deriveKey(input.masterKey, 'webhook-signing');
  const webhookSecretFor = (clientId: string) => deriveClientWebhookSecret(webhookKey, clientId);
  // Interface A endpoints sign under a key of their own, so no OAuth client id can name their secret.
  const endpointKey = deriveKey(input.masterKey, 'tenant-webhook-signing');
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
    swaps: stores.swaps,
    webhooks: stores.webhooks,
    clients: stores.oauth.clients,
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
  if (input.isLocalnet && input.seedPools) {
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
    webhookEndpoints: stores.webhookEndpoints,
    endpointSecretFor,
    ...(config.WEBHOOK_SECRET ? { inbound: createStandardWebhook(config.WEBHOOK_SECRET) } : {}),
  };
}
