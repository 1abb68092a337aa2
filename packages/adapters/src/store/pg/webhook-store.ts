import type { WebhookDelivery, WebhookStore } from '@token-actions/core';
import { attempt } from './failure.js';
import type { SqlExecutor } from './sql.js';

type Row = Record<string, unknown>;
const COLUMNS = `id, client_id, url, event_type, payload, status, attempts, max_attempts, next_attempt_at,
  last_error, last_status_code, delivered_at, created_at`;
const date = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));

function toDelivery(row: Row): WebhookDelivery {
  return {
    id: String(row.id),
    clientId: String(row.client_id),
    url: String(row.url),
    eventType: String(row.event_type),
    payload: String(row.payload),
    status: String(row.status) as WebhookDelivery['status'],
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    nextAttemptAt: date(row.next_attempt_at),
    ...(row.last_error != null ? { lastError: String(row.last_error) } : {}),
    ...(row.last_status_code != null ? { lastStatusCode: Number(row.last_status_code) } : {}),
    ...(row.delivered_at != null ? { deliveredAt: date(row.delivered_at) } : {}),
    createdAt: date(row.created_at),
  };
}

/** Inbound webhook ids and the outbound delivery queue over the pg dialect. */
export function createPgWebhookStore(sql: SqlExecutor): WebhookStore {
  return {
    recordInbound(webhookId, receivedAt) {
      return attempt('webhooks.recordInbound', async () => {
        const r = await sql.query(
          'INSERT INTO webhook_inbound (webhook_id, received_at) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1',
          [webhookId.slice(0, 256), receivedAt],
        );
        return r.rows.length > 0;
      });
    },
    enqueue(d) {
      return attempt('webhooks.enqueue', async () => {
        const r = await sql.query(
          `INSERT INTO webhook_deliveries (id, client_id, url, event_type, payload, status, attempts, max_attempts, next_attempt_at, created_at)
           VALUES ($1, $2, $3, $4, $5, 'pending', 0, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING 1`,
          [d.id, d.clientId, d.url, d.eventType, d.payload, d.maxAttempts, d.nextAttemptAt, d.createdAt],
        );
        return r.rows.length > 0;
      });
    },
    claimDue(now, limit, leaseMs) {
      return attempt('webhooks.claimDue', async () => {
        // Moving next_attempt_at forward is the lease: another worker will not see the row as due.
        const r = await sql.query<Row>(
          `UPDATE webhook_deliveries d SET next_attempt_at = $1::timestamptz + ($3::bigint * interval '1 millisecond')
             FROM (SELECT id FROM webhook_deliveries
                    WHERE status = 'pending' AND next_attempt_at <= $1
                    ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED) due
            WHERE d.id = due.id
          RETURNING ${COLUMNS.split(',')
            .map((c) => `d.${c.trim()}`)
            .join(', ')}`,
          [now, Math.max(0, Math.floor(limit)), Math.max(0, Math.floor(leaseMs))],
        );
        // The lease moved next_attempt_at; report the delivery as it was claimed.
        return r.rows.map(toDelivery).map((d) => ({ ...d, nextAttemptAt: now }));
      });
    },
    recordAttempt(id, result, at) {
      return attempt('webhooks.recordAttempt', async () => {
        if (result.delivered) {
          await sql.query(
            `UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = $2,
               last_status_code = $3 WHERE id = $1 AND status = 'pending'`,
            [id, at, result.statusCode],
          );
          return;
        }
        await sql.query(
          `UPDATE webhook_deliveries SET attempts = attempts + 1, last_error = $2, last_status_code = $3,
             status = CASE WHEN $4::timestamptz IS NULL THEN 'dead' ELSE status END,
             next_attempt_at = COALESCE($4::timestamptz, next_attempt_at)
           WHERE id = $1 AND status = 'pending'`,
          [id, result.error.slice(0, 500), result.statusCode ?? null, result.nextAttemptAt ?? null],
        );
      });
    },
    cancelPending(clientId, reason) {
      return attempt('webhooks.cancelPending', async () => {
        const r = await sql.query(
          `UPDATE webhook_deliveries SET status = 'dead', last_error = $2
            WHERE client_id = $1 AND status = 'pending' RETURNING id`,
          [clientId, reason.slice(0, 500)],
        );
        return r.rows.length;
      });
    },
    get(id) {
      return attempt('webhooks.get', async () => {
        const r = await sql.query<Row>(`SELECT ${COLUMNS} FROM webhook_deliveries WHERE id = $1`, [id]);
        return r.rows[0] ? toDelivery(r.rows[0]) : null;
      });
    },
  };
}
