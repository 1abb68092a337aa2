import type { Migration } from './types.js';

/**
 * Tenants, so several clients share one service and none sees another's data. Every API key
 * belongs to one; so do the managed accounts, transactions, escrows and idempotency keys it
 * creates. Rows written before tenants existed belong to the default tenant, which may pay from
 * the treasury (`treasury_payments`), as every key could before tenants existed. Named keys of
 * the service (treasury, escrow vault, pools) belong to no tenant.
 *
 * Idempotency keys were scoped by API key id; they are now scoped by tenant, so a retry with a
 * rotated key still replays. Existing claims and the request keys of their transactions move to
 * the default tenant's scope, skipping any that would collide (two keys that used the same
 * Idempotency-Key), which keep their old scope.
 */
export const migration0005: Migration = {
  id: '0005_tenants',
  sql: `
CREATE TABLE tenants (
  id                 text PRIMARY KEY,
  treasury_payments  boolean NOT NULL DEFAULT false,
  created_at         timestamptz NOT NULL
);
INSERT INTO tenants (id, treasury_payments, created_at) VALUES ('default', true, now());

ALTER TABLE api_keys
  ADD COLUMN tenant text NOT NULL DEFAULT 'default' REFERENCES tenants (id),
  ADD COLUMN prefix text,
  ADD COLUMN last_used_at timestamptz,
  ADD COLUMN revoked_at timestamptz,
  ADD COLUMN expires_at timestamptz;
ALTER TABLE api_keys ALTER COLUMN tenant DROP DEFAULT;
CREATE INDEX api_keys_tenant_idx ON api_keys (tenant, created_at, id);

ALTER TABLE transactions ADD COLUMN tenant text NOT NULL DEFAULT 'default';
ALTER TABLE transactions ALTER COLUMN tenant DROP DEFAULT;
CREATE INDEX transactions_mint_idx ON transactions (mint) WHERE kind = 'mint';

ALTER TABLE escrows ADD COLUMN tenant text NOT NULL DEFAULT 'default';
ALTER TABLE escrows ALTER COLUMN tenant DROP DEFAULT;

ALTER TABLE managed_keys ADD COLUMN tenant text;
UPDATE managed_keys SET tenant = 'default' WHERE name IS NULL;

INSERT INTO idempotency_keys (scope, key, request_hash, status, response_status, response_body, created_at)
SELECT 'default', i.key, i.request_hash, i.status, i.response_status, i.response_body, i.created_at
  FROM idempotency_keys i JOIN api_keys k ON i.scope = k.id
ON CONFLICT DO NOTHING;
DELETE FROM idempotency_keys i USING api_keys k
 WHERE i.scope = k.id
   AND EXISTS (SELECT 1 FROM idempotency_keys d
                WHERE d.scope = 'default' AND d.key = i.key AND d.request_hash = i.request_hash
                  AND d.created_at = i.created_at);

WITH mapped AS (
  SELECT t.id, 'default' || substr(t.request_key, length(k.id) + 1) AS new_key,
         row_number() OVER (PARTITION BY substr(t.request_key, length(k.id) + 1) ORDER BY t.created_at, t.id) AS n
    FROM transactions t JOIN api_keys k ON left(t.request_key, length(k.id) + 1) = k.id || ':'
)
UPDATE transactions t SET request_key = m.new_key
  FROM mapped m
 WHERE t.id = m.id AND m.n = 1
   AND NOT EXISTS (SELECT 1 FROM transactions o WHERE o.request_key = m.new_key);
`,
};
