export { withSettledTransactionCache } from './cache.js';
export { type MigrateResult, migrate } from './pg/migrate.js';
export { migrations } from './pg/migrations/index.js';
export type { Migration } from './pg/migrations/types.js';
export { createPgliteClient, type PgliteClientOptions } from './pg/pglite.js';
export { createPostgresClient, type PostgresClientOptions } from './pg/postgres.js';
export type { SqlClient, SqlExecutor } from './pg/sql.js';
export {
  createPgStore,
  IDEMPOTENCY_TTL_MS,
  listTransactionEvents,
  type PgStoreOptions,
  type TransactionEvent,
} from './pg/store.js';
export { createPgSwapStore } from './pg/swap-store.js';
export { createPgWebhookStore } from './pg/webhook-store.js';
