import type { KeySigner, SqlClient } from '@token-actions/adapters/edge';
import type { ActionDeps, ChainPort, Currencies } from '@token-actions/core';
import type { ChainConfig, PolicyConfig, StateConfig, SwapConfig } from './config/fragments.js';
import { systemClock, wireCore } from './core-deps.js';
import type { RuntimeLogger } from './logger.js';
import { meterFailures, meterWebhookSender } from './observability/metered.js';
import type { ServerMetrics } from './observability/metrics.js';
import { composeStores, type ListeningCaches, type Stores } from './stores.js';
import { composeSwaps, type SwapComposition } from './swaps.js';

export type PortsConfig = PolicyConfig &
  SwapConfig &
  Pick<StateConfig, 'IDEMPOTENCY_ABANDON_MS'> &
  Pick<ChainConfig, 'TREASURY_AIRDROP_SOL'> & { readonly WEBHOOK_SECRET?: string | undefined };

export interface PortsInput {
  readonly config: PortsConfig;
  readonly sql: SqlClient;
  readonly masterKey: Uint8Array;
  readonly chain: {
    readonly chain: ChainPort;
    readonly currencies: Currencies;
    readonly isLocalnet: boolean;
  };
  readonly logger: RuntimeLogger;
  /** See `StoreOptions.coalesceWrites`. */
  readonly coalesceWrites: boolean;
  readonly instanceId?: string;
  readonly caches?: ListeningCaches;
  /** Count dependency failures and webhook deliveries on these instruments. */
  readonly metrics?: ServerMetrics;
  /** How managed accounts' keys sign (the keystore's WebCrypto default where omitted). */
  readonly keySigner?: KeySigner;
  /** Seed the localnet's pools (see `composeSwaps`). */
  readonly seedPools: boolean;
}

export interface Ports {
  readonly deps: ActionDeps;
  readonly swaps: SwapComposition;
  readonly stores: Stores;
}

/**
 * The use-cases' ports of any process shape, over its database and chain: the stores (wrapped by
 * `composeStores`), the keystore and fee oracle (`wireCore`), the swap side (`composeSwaps`). With
 * `metrics`, the two ports that are not stores get their outermost layer here, once: the chain
 * the use-cases and the swap side call counts its failures (the fee oracle, built inside
 * `wireCore`, holds the bare chain), and the webhook sender counts each attempt by outcome.
 */
export async function composePorts(input: PortsInput): Promise<Ports> {
  const { config, sql, metrics } = input;
  const stores = composeStores(sql, {
    clock: systemClock,
    coalesceWrites: input.coalesceWrites,
    idempotencyAbandonAfterMs: config.IDEMPOTENCY_ABANDON_MS,
    ...(input.instanceId ? { instanceId: input.instanceId } : {}),
    ...(input.caches ? { caches: input.caches } : {}),
    ...(metrics ? { metrics } : {}),
  });
  try {
    const wired = await wireCore({
      config,
      sql,
      store: stores.store,
      masterKey: input.masterKey,
      chain: input.chain,
      ...(input.keySigner ? { keySigner: input.keySigner } : {}),
    });
    const deps: ActionDeps = metrics
      ? { ...wired, chain: meterFailures(wired.chain, metrics.chainErrors) }
      : wired;
    const swaps = await composeSwaps({
      config,
      deps,
      stores,
      masterKey: input.masterKey,
      isLocalnet: input.chain.isLocalnet,
      logger: input.logger,
      seedPools: input.seedPools,
    });
    const sender = swaps.deps.webhookSender;
    const metered: SwapComposition =
      metrics && sender
        ? {
            ...swaps,
            deps: { ...swaps.deps, webhookSender: meterWebhookSender(sender, metrics.webhookDeliveries) },
          }
        : swaps;
    return { deps, swaps: metered, stores };
  } catch (error) {
    await stores.close();
    throw error;
  }
}
