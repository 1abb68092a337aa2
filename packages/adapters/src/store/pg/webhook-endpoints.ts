import type {
  Signature,
  TenantId,
  TransactionKind,
  TransactionStatusEvent,
  TxStatus,
  WebhookEndpoint,
  WebhookEndpointStore,
} from '@token-actions/core';
import { attempt } from './failure.js';
import type { SqlExecutor } from './sql.js';

type Row = Record<string, unknown>;
const date = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));

function toEndpoint(row: Row): WebhookEndpoint {
  return {
    id: String(row.id),
    tenant: String(row.tenant) as TenantId,
    url: String(row.url),
    ...(row.description != null ? { description: String(row.description) } : {}),
    createdAt: date(row.created_at),
  };
}

/**
 * Tenants' webhook endpoints, and the outbox of their notifications: `transaction_events`, written
 * by the statement that moves a status, read here with the transaction's tenant and kind.
 */
export function createPgWebhookEndpointStore(sql: SqlExecutor): WebhookEndpointStore {
  return {
    create(e) {
      return attempt('webhookEndpoints.create', async () => {
        await sql.query(
          'INSERT INTO webhook_endpoints (id, tenant, url, description, created_at) VALUES ($1, $2, $3, $4, $5)',
          [e.id, e.tenant, e.url, e.description ?? null, e.createdAt],
        );
      });
    },
    list(tenant) {
      return attempt('webhookEndpoints.list', async () => {
        const r = await sql.query<Row>(
          `SELECT id, tenant, url, description, created_at FROM webhook_endpoints
            WHERE tenant = $1 ORDER BY created_at, id`,
          [tenant],
        );
        return r.rows.map(toEndpoint);
      });
    },
    get(id, tenant) {
      return attempt('webhookEndpoints.get', async () => {
        const r = await sql.query<Row>(
          'SELECT id, tenant, url, description, created_at FROM webhook_endpoints WHERE id = $1 AND tenant = $2',
          [id, tenant],
        );
        return r.rows[0] ? toEndpoint(r.rows[0]) : null;
      });
    },
    remove(id, tenant) {
      return attempt('webhookEndpoints.remove', async () => {
        const r = await sql.query(
          'DELETE FROM webhook_endpoints WHERE id = $1 AND tenant = $2 RETURNING id',
          [id, tenant],
        );
        return r.rows.length > 0;
      });
    },
    listUnpublished(limit) {
      return attempt('webhookEndpoints.listUnpublished', async () => {
        const r = await sql.query<Row>(
          `SELECT e.id, e.transaction_id, e.from_status, e.to_status, e.at, t.tenant, t.kind, t.slot, t.error
             FROM transaction_events e JOIN transactions t ON t.id = e.transaction_id
            WHERE e.published_at IS NULL
            ORDER BY e.id LIMIT $1`,
          [Math.max(0, Math.floor(limit))],
        );
        return r.rows.map(
          (row): TransactionStatusEvent => ({
            sequence: String(row.id),
            tenant: String(row.tenant) as TenantId,
            transactionId: String(row.transaction_id) as Signature,
            kind: String(row.kind) as TransactionKind,
            from: String(row.from_status) as TxStatus,
            to: String(row.to_status) as TxStatus,
            at: date(row.at),
            ...(row.slot != null ? { slot: BigInt(String(row.slot)) } : {}),
            ...(row.error != null ? { error: String(row.error) } : {}),
          }),
        );
      });
    },
    markPublished(sequences, at) {
      return attempt('webhookEndpoints.markPublished', async () => {
        if (sequences.length === 0) return;
        await sql.query(
          'UPDATE transaction_events SET published_at = $2 WHERE id = ANY($1::bigint[]) AND published_at IS NULL',
          [sequences, at],
        );
      });
    },
  };
}
