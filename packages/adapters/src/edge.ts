/**
 * `@token-actions/adapters/edge`: the adapters an edge runtime (workerd) can load. Nothing here
 * reaches LiteSVM, PGlite, ioredis or node:fs; the edge build fails if one of them appears.
 */
export { createJupiterAggregator, type JupiterAggregatorConfig } from './aggregator/jupiter.js';
export { createLocalAggregator } from './aggregator/local.js';
export { discoverRpcCurrencies } from './chain/rpc/discover.js';
export { createRpcChain, type RpcChainConfig } from './chain/rpc/index.js';
export * from './chain/rpc/transport/index.js';
export { randomWebSigner } from './chain/shared/ed25519-web.js';
export type { LocalSigner, NewSigner } from './chain/shared/signer.js';
export { deriveKey } from './crypto/derive.js';
export { randomToken, sha256Hex } from './crypto/hash.js';
export { createHmacMac } from './crypto/mac.js';
export { createFeeOracle } from './fees/fee-oracle.js';
export { createEncryptedKeystore, type KeySigner } from './keystore/encrypted.js';
export { MASTER_KEY_ENV, parseMasterKey } from './keystore/master-key-text.js';
export { createPgOAuthStore } from './oauth/pg-store.js';
export { createMemoryRateLimiter } from './ratelimit/memory.js';
export { withSettledTransactionCache } from './store/cache.js';
export { POOL_CHANGES_CHANNEL } from './store/pg/migrations/0040_swap_quotes.js';
export { createPostgresClient } from './store/pg/postgres.js';
export { createRequestScopedSql, type RequestScopedSql, type WaitUntil } from './store/pg/request-scoped.js';
export type { SqlClient, SqlExecutor } from './store/pg/sql.js';
export { createPgStore } from './store/pg/store/index.js';
export { createPgSwapStore } from './store/pg/swaps/index.js';
export { createPgWebhookEndpointStore } from './store/pg/webhook-endpoints.js';
export { createPgWebhookStore } from './store/pg/webhook-store.js';
export { withPoolCache } from './store/swap-cache.js';
// The guard resolves with node:dns (workerd has it). Delivery connects with node:http(s) pinned to
// the checked address, which workerd does not offer: outbound webhooks are delivered by a Node
// worker (README, edge runtime).
export { createOutboundGuard, type OutboundGuard } from './webhooks/outbound-guard.js';
export {
  createStandardWebhook,
  createWebhookSender,
  deriveClientWebhookSecret,
} from './webhooks/standard.js';
