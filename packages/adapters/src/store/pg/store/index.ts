import type { ClockPort, StorePort } from '@token-actions/core';
import type { SqlExecutor } from '../sql.js';
import { createPgApiKeys, createPgTenants, KEY_CHANGES_CHANNEL } from './api-keys.js';
import { createPgEscrows } from './escrows.js';
import { createPgIdempotency, IDEMPOTENCY_TTL_MS } from './idempotency.js';
import { createPgTransactions, listTransactionEvents, type TransactionEvent } from './transactions.js';

export { createPgInstanceLease, type InstanceLease } from './instances.js';
export { IDEMPOTENCY_TTL_MS, KEY_CHANGES_CHANNEL, listTransactionEvents, type TransactionEvent };

export interface PgStoreOptions {
  /** Source of `updated_at` for status changes and settlements; the system clock by default. */
  readonly clock?: ClockPort;
  /** An idempotency claim in progress this long belongs to a dead process and may be taken over. Default 30 s. */
  readonly idempotencyAbandonAfterMs?: number;
  /** This process's instance id (see `createPgInstanceLease`): the owner its idempotency claims name. */
  readonly instanceId?: string;
  /**
   * Concurrent transaction inserts share one multi-row statement, and so do concurrent
   * idempotency completions (group commit). Off where one
   * client may not serve several requests' statements (workerd's request-scoped connections).
   */
  readonly coalesceWrites?: boolean;
}

/**
 * The store port over the pg dialect (PGlite or PostgreSQL). Every mutation is one statement, so
 * it is atomic without an explicit transaction and safe with many processes on one database.
 */
export function createPgStore(sql: SqlExecutor, options: PgStoreOptions = {}): StorePort {
  const now = () => options.clock?.now() ?? new Date();
  return {
    transactions: createPgTransactions(sql, now, options.coalesceWrites === true),
    escrows: createPgEscrows(sql, now),
    idempotency: createPgIdempotency(
      sql,
      options.idempotencyAbandonAfterMs ?? 30_000,
      options.instanceId,
      options.coalesceWrites === true,
    ),
    apiKeys: createPgApiKeys(sql),
    tenants: createPgTenants(sql),
  };
}
