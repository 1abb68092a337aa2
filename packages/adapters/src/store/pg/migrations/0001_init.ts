import type { Migration } from './types.js';

/**
 * Core store: the transaction outbox and its status history, escrows, idempotency keys, API keys
 * and custodial keys. Amounts and chain heights are numeric(20,0): they hold any u64, which
 * bigint (signed 64-bit) cannot.
 */
export const migration0001: Migration = {
  id: '0001_init',
  sql: `
CREATE TABLE transactions (
  id                       text PRIMARY KEY,
  kind                     text NOT NULL,
  status                   text NOT NULL
    CHECK (status IN ('pending', 'processed', 'confirmed', 'finalized', 'failed', 'expired')),
  currency                 text,
  amount                   numeric(20,0) CHECK (amount >= 0),
  from_account             text,
  to_account               text,
  mint                     text,
  escrow_id                text,
  priority                 text,
  compute_unit_price       numeric(20,0) NOT NULL CHECK (compute_unit_price >= 0),
  compute_unit_limit       integer NOT NULL CHECK (compute_unit_limit >= 0),
  fee_lamports             numeric(20,0) NOT NULL CHECK (fee_lamports >= 0),
  wire                     bytea NOT NULL,
  blockhash                text NOT NULL,
  last_valid_block_height  numeric(20,0) NOT NULL,
  slot                     numeric(20,0),
  error                    text,
  created_at               timestamptz NOT NULL,
  updated_at               timestamptz NOT NULL
);

-- The tracker polls unsettled transactions oldest first; settled ones drop out of this index.
CREATE INDEX transactions_unsettled_idx ON transactions (created_at, id)
  WHERE status IN ('pending', 'processed', 'confirmed');
CREATE INDEX transactions_kind_idx ON transactions (kind);

-- Append-only: one row per successful status change, written by the same statement that moves it.
CREATE TABLE transaction_events (
  id              bigserial PRIMARY KEY,
  transaction_id  text NOT NULL REFERENCES transactions (id),
  from_status     text NOT NULL,
  to_status       text NOT NULL,
  at              timestamptz NOT NULL
);
CREATE INDEX transaction_events_transaction_idx ON transaction_events (transaction_id, id);

CREATE TABLE escrows (
  id                         text PRIMARY KEY,
  purpose                    text NOT NULL CHECK (purpose IN ('charity_donation', 'merchant_payment')),
  payer                      text NOT NULL,
  beneficiary                text NOT NULL,
  currency                   text NOT NULL,
  amount                     numeric(20,0) NOT NULL CHECK (amount >= 0),
  status                     text NOT NULL CHECK (status IN ('held', 'released', 'refunded')),
  funding_transaction_id     text NOT NULL UNIQUE,
  settlement_transaction_id  text,
  expires_at                 timestamptz NOT NULL,
  expiry_action              text NOT NULL CHECK (expiry_action IN ('refund', 'release')),
  created_at                 timestamptz NOT NULL,
  updated_at                 timestamptz NOT NULL
);
CREATE INDEX escrows_held_expiry_idx ON escrows (expires_at, id) WHERE status = 'held';

CREATE TABLE idempotency_keys (
  scope            text NOT NULL,
  key              text NOT NULL,
  request_hash     text NOT NULL,
  status           text NOT NULL CHECK (status IN ('in_progress', 'completed')),
  response_status  integer,
  response_body    text,
  created_at       timestamptz NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

CREATE TABLE api_keys (
  id          text PRIMARY KEY,
  label       text NOT NULL,
  hash        text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL
);

-- Secrets are AES-256-GCM ciphertext under the master key, bound to their public key (AAD).
CREATE TABLE managed_keys (
  public_key  text PRIMARY KEY,
  name        text UNIQUE,
  label       text,
  ciphertext  bytea NOT NULL,
  iv          bytea NOT NULL,
  created_at  timestamptz NOT NULL
);
`,
};
