// In-memory fakes of every port, for tests here and in any project that uses the core. Each fake
// passes the same contract suite as its real adapter in packages/adapters.
export { createFakeAggregator } from './aggregator.js';
export { createFakeChain, type FakeChain, type FakeChainOptions, fakeChainCurrencies } from './chain.js';
export {
  createFixedClock,
  createRandomIds,
  createSequentialIds,
  createSystemClock,
  createTestMac,
  type FixedClock,
} from './clock.js';
export { createTestDeps, type TestDeps } from './deps.js';
export { createFakeFeeOracle, FAKE_PRIORITY_PRICES, type FakeFeeOracle } from './fee-oracle.js';
export { createInMemoryKeystore, type InMemoryKeystore } from './keystore.js';
export { createMemoryOAuthStore } from './oauth.js';
export { createFakeRateLimiter, type FakeRateLimiter } from './rate-limit.js';
export {
  createInMemoryStore,
  IDEMPOTENCY_ABANDON_MS,
  IDEMPOTENCY_TTL_MS,
  type InMemoryStore,
  type TransactionEvent,
} from './store.js';
export { createTestSwapDeps, DEFAULT_POOL_SEEDS, type TestSwapDeps } from './swap-deps.js';
export { createInMemorySwapStore, type InMemorySwapStore } from './swap-store.js';
export { createInMemoryWebhookEndpointStore } from './webhook-endpoints.js';
export { createInMemoryWebhookStore, createRecordingWebhookSender } from './webhooks.js';
