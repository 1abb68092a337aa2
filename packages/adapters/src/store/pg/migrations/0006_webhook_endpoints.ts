import type { Migration } from './types.js';

/**
 * Payment webhooks, so a tenant hears of its transactions' outcomes without polling: the endpoints
 * a tenant registers, and a publication mark on `transaction_events`, which the status change
 * writes in its own statement and so is already an outbox nothing can fall out of. Changes made
 * before endpoints existed are marked published: no endpoint could have asked for them.
 */
export const migration0006: Migration = {
  id: '0006_webhook_endpoints',
  sql: `
CREATE TABLE webhook_endpoints (
  id           text PRIMARY KEY,
  tenant       text NOT NULL REFERENCES tenants (id),
  url          text NOT NULL,
  description  text,
  created_at   timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_tenant_idx ON webhook_endpoints (tenant, created_at, id);

ALTER TABLE transaction_events ADD COLUMN published_at timestamptz;
UPDATE transaction_events SET published_at = at;
CREATE INDEX transaction_events_unpublished_idx ON transaction_events (id) WHERE published_at IS NULL;
`,
};
