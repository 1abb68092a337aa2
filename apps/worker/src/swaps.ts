import {
  createJupiterAggregator,
  createLocalAggregator,
  createPgSwapStore,
  createPgWebhookStore,
  createWebhookSender,
  deriveClientWebhookSecret,
  type SqlClient,
} from '@token-actions/adapters';
import {
  type ActionDeps,
  DEFAULT_SWAP_POLICIES,
  type OAuthStore,
  type PoolSeed,
  parseAmount,
  type SwapDeps,
  seedPools,
} from '@token-actions/core';
import type { CoreConfig } from './config.js';
import type { LoopLogger } from './loops.js';

export interface SwapComposition {
  readonly deps: SwapDeps;
  /** The per-client secret outbound notifications are signed with (`whsec_...`). */
  webhookSecretFor(clientId: string): string;
}

function seedsOf(config: CoreConfig, deps: ActionDeps): PoolSeed[] {
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
  config: CoreConfig;
  deps: ActionDeps;
  sql: SqlClient;
  oauthStore: OAuthStore;
  webhookKey: Uint8Array;
  isLocalnet: boolean;
  logger: LoopLogger;
  /** Seed the localnet's pools if they are not booked yet: the server does, a standalone worker does not. */
  seedPools: boolean;
}): Promise<SwapComposition> {
  const { config, deps } = input;
  const swaps = createPgSwapStore(input.sql, { clock: deps.clock });
  const webhookSecretFor = (clientId: string) => deriveClientWebhookSecret(input.webhookKey, clientId);
  const base: Omit<SwapDeps, 'aggregator'> = {
    chain: deps.chain,
    keystore: deps.keystore,
    store: deps.store,
    fees: deps.fees,
    clock: deps.clock,
    ids: deps.ids,
    currencies: deps.currencies,
    swaps,
    webhooks: createPgWebhookStore(input.sql),
    clients: input.oauthStore.clients,
    webhookSender: createWebhookSender({ fetch, secretFor: webhookSecretFor }),
    swapPolicies: {
      ...DEFAULT_SWAP_POLICIES,
      quoteTtlMs: config.SWAP_QUOTE_TTL_MS,
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
  };
}
