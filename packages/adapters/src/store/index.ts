export {
  type ApiKeyCacheOptions,
  type KeyChangeHandlers,
  withApiKeyCache,
  withSettledTransactionCache,
} from './cache.js';
export {
  createEmbeddedPostgresClient,
  type EmbeddedPostgresClient,
  type EmbeddedPostgresOptions,
} from './pg/embedded-postgres.js';
export { type MigrateResult, migrate } from './pg/migrate.js';
export { POOL_CHANGES_CHANNEL } from './pg/migrations/0040_swap_quotes.js';
export { migrations } from './pg/migrations/index.js';
export type { Migration } from './pg/migrations/types.js';
export { createPgliteClient, type PgliteClientOptions } from './pg/pglite.js';
export { createPostgresClient, type PostgresClientOptions } from './pg/postgres.js';
export { createRequestScopedSql, type RequestScopedSql, type WaitUntil } from './pg/request-scoped.js';
export type { SqlClient, SqlExecutor, TransactionExecutor } from './pg/sql.js';
export { createPgTransactionStats, type TransactionStats } from './pg/stats.js';
export {
  createPgInstanceLease,
  createPgStore,
  IDEMPOTENCY_TTL_MS,
  type InstanceLease,
  KEY_CHANGES_CHANNEL,
  listTransactionEvents,
  type PgStoreOptions,
  type TransactionEvent,
} from './pg/store/index.js';
export { createPgSwapStore } from './pg/swaps/index.js';
export { createPgWebhookEndpointStore } from './pg/webhook-endpoints.js';
export { createPgWebhookStore } from './pg/webhook-store.js';
export { type PoolCacheOptions, withPoolCache } from './swap-cache.js';
