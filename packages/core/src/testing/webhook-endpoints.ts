import { okAsync, ResultAsync } from 'neverthrow';
import type { TenantId } from '../domain/tenant.js';
import type {
  TransactionStatusEvent,
  WebhookEndpoint,
  WebhookEndpointStore,
} from '../ports/webhook-endpoints.js';
import type { InMemoryStore } from './store.js';

/**
 * Webhook endpoints in memory, with the pg adapter's rules; the outbox is the in-memory store's
 * record of status changes, as the pg adapter's is the `transaction_events` table.
 */
export function createInMemoryWebhookEndpointStore(options: {
  readonly store: Pick<InMemoryStore, 'allTransactionEvents' | 'transactions'>;
}): WebhookEndpointStore {
  const endpoints = new Map<string, WebhookEndpoint>();
  const published = new Set<string>();
  const ofTenant = (tenant: TenantId) =>
    [...endpoints.values()]
      .filter((e) => e.tenant === tenant)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  return {
    create(endpoint) {
      endpoints.set(endpoint.id, { ...endpoint });
      return okAsync(undefined);
    },
    list(tenant) {
      return okAsync(ofTenant(tenant).map((e) => ({ ...e })));
    },
    get(id, tenant) {
      const found = endpoints.get(id);
      return okAsync(found && found.tenant === tenant ? { ...found } : null);
    },
    remove(id, tenant) {
      const found = endpoints.get(id);
      if (!found || found.tenant !== tenant) return okAsync(false);
      endpoints.delete(id);
      return okAsync(true);
    },
    listUnpublished(limit) {
      const pending = options.store
        .allTransactionEvents()
        .filter((e) => !published.has(e.sequence))
        .slice(0, Math.max(0, limit));
      return ResultAsync.combine(
        pending.map((e) =>
          options.store.transactions.get(e.transactionId).map((record): TransactionStatusEvent | null =>
            record
              ? {
                  sequence: e.sequence,
                  tenant: record.tenant,
                  transactionId: e.transactionId,
                  kind: record.kind,
                  from: e.from,
                  to: e.to,
                  at: e.at,
                  ...(record.slot !== undefined ? { slot: record.slot } : {}),
                  ...(record.error !== undefined ? { error: record.error } : {}),
                }
              : null,
          ),
        ),
      ).map((rows) => rows.filter((r): r is TransactionStatusEvent => r !== null));
    },
    markPublished(sequences) {
      for (const s of sequences) published.add(s);
      return okAsync(undefined);
    },
  };
}
