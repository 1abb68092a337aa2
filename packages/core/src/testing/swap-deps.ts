import type { PublicKey } from '../domain/public-key.js';
import type { AggregatorPort } from '../ports/aggregator.js';
import { DEFAULT_SWAP_POLICIES, type SwapDeps, type SwapPolicies } from '../use-cases/swaps/deps.js';
import { type PoolSeed, poolAuthorityName, seedPools } from '../use-cases/swaps/pools.js';
import { createFakeAggregator } from './aggregator.js';
import { createTestDeps, type TestDeps } from './deps.js';
import { createMemoryOAuthStore } from './oauth.js';
import { createInMemorySwapStore, type InMemorySwapStore } from './swap-store.js';
import { createInMemoryWebhookStore, createRecordingWebhookSender } from './webhooks.js';

export interface TestSwapDeps extends TestDeps {
  readonly swapDeps: SwapDeps;
  readonly swaps: InMemorySwapStore;
  readonly webhookStore: ReturnType<typeof createInMemoryWebhookStore>;
  readonly sender: ReturnType<typeof createRecordingWebhookSender>;
  readonly oauth: ReturnType<typeof createMemoryOAuthStore>;
  authorityOf(poolId: string): Promise<PublicKey>;
}

/** The default seeds: 1,000 SOL : 150,000 USDC; 1,000 SOL : 1,000,000 PROJ; 150,000 USDC : 1,000,000 PROJ. */
export const DEFAULT_POOL_SEEDS: readonly PoolSeed[] = [
  { tokenA: 'SOL', tokenB: 'USDC', reserveA: 1_000_000_000_000n, reserveB: 150_000_000_000n, feeBps: 30 },
  {
    tokenA: 'SOL',
    tokenB: 'PROJ',
    reserveA: 1_000_000_000_000n,
    reserveB: 1_000_000_000_000_000n,
    feeBps: 30,
  },
  {
    tokenA: 'USDC',
    tokenB: 'PROJ',
    reserveA: 150_000_000_000n,
    reserveB: 1_000_000_000_000_000n,
    feeBps: 30,
  },
];

/** createTestDeps plus the swap ports (pool book, webhooks, OAuth clients) with pools seeded on the fake chain. */
export async function createTestSwapDeps(
  options: {
    seeds?: readonly PoolSeed[];
    policies?: Partial<SwapPolicies>;
    aggregator?: (deps: Omit<SwapDeps, 'aggregator'>) => AggregatorPort;
    senderStatuses?: number[];
  } = {},
): Promise<TestSwapDeps> {
  const t = await createTestDeps();
  const swaps = createInMemorySwapStore({ clock: t.clock });
  const webhookStore = createInMemoryWebhookStore({ clock: t.clock });
  const sender = createRecordingWebhookSender(options.senderStatuses ?? []);
  const oauth = createMemoryOAuthStore();
  const base: Omit<SwapDeps, 'aggregator'> = {
    chain: t.deps.chain,
    keystore: t.deps.keystore,
    store: t.deps.store,
    fees: t.deps.fees,
    clock: t.deps.clock,
    ids: t.deps.ids,
    currencies: t.deps.currencies,
    swaps,
    webhooks: webhookStore,
    clients: oauth.clients,
    webhookSender: sender,
    swapPolicies: { ...DEFAULT_SWAP_POLICIES, ...options.policies },
    random: () => 0.5,
  };
  const swapDeps: SwapDeps = { ...base, aggregator: options.aggregator?.(base) ?? createFakeAggregator() };
  const seeded = await seedPools(swapDeps, options.seeds ?? DEFAULT_POOL_SEEDS, {
    feeBufferLamports: 10_000_000_000n,
  });
  if (seeded.isErr()) throw new Error(seeded.error.message);
  return {
    ...t,
    swapDeps,
    swaps,
    webhookStore,
    sender,
    oauth,
    async authorityOf(poolId) {
      return (await t.keystore.named(poolAuthorityName(poolId)))._unsafeUnwrap();
    },
  };
}
