import type { Migration } from './types.js';

/**
 * The pool book, swap requests, and their completion webhooks, so firm quotes can be priced and
 * settled against the project's own pools. A pool's `reserved_*` is what pending firm quotes
 * promised out of `reserve_*`; the checks keep a promise from ever exceeding the reserve.
 */
export const migration0004: Migration = {
  id: '0004_pools',
  sql: `
CREATE TABLE pools (
  id          text PRIMARY KEY,
  token_a     text NOT NULL,
  token_b     text NOT NULL,
  reserve_a   numeric(20,0) NOT NULL CHECK (reserve_a >= 0),
  reserve_b   numeric(20,0) NOT NULL CHECK (reserve_b >= 0),
  reserved_a  numeric(20,0) NOT NULL DEFAULT 0 CHECK (reserved_a >= 0 AND reserved_a <= reserve_a),
  reserved_b  numeric(20,0) NOT NULL DEFAULT 0 CHECK (reserved_b >= 0 AND reserved_b <= reserve_b),
  fee_bps     integer NOT NULL CHECK (fee_bps >= 0 AND fee_bps < 10000),
  authority   text NOT NULL,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);

CREATE TABLE swap_requests (
  request_id              text PRIMARY KEY,
  source                  text NOT NULL CHECK (source IN ('project', 'aggregator')),
  provider                text NOT NULL,
  client_id               text NOT NULL,
  user_account            text NOT NULL,
  input_token             text NOT NULL,
  output_token            text NOT NULL,
  in_amount               numeric(20,0) NOT NULL CHECK (in_amount > 0),
  out_amount              numeric(20,0) NOT NULL CHECK (out_amount >= 0),
  min_out_amount          numeric(20,0) NOT NULL CHECK (min_out_amount >= 0),
  fee_amount              numeric(20,0) NOT NULL CHECK (fee_amount >= 0),
  price_impact_ppm        numeric(20,0) NOT NULL,
  slippage_bps            integer NOT NULL,
  hops                    jsonb NOT NULL,
  pool_ids                text[] NOT NULL,
  status                  text NOT NULL
    CHECK (status IN ('prepared', 'submitted', 'landed', 'failed', 'expired')),
  transaction_id          text,
  message                 bytea,
  signers                 jsonb,
  presigned               jsonb,
  blockhash               text,
  last_valid_block_height numeric(20,0),
  fee_lamports            numeric(20,0),
  compute_unit_limit      integer,
  compute_unit_price      numeric(20,0),
  signed_wire             bytea,
  expires_at              timestamptz NOT NULL,
  error                   text,
  created_at              timestamptz NOT NULL,
  updated_at              timestamptz NOT NULL,
  notified_at             timestamptz,
  seq                     bigserial
);
CREATE INDEX swap_requests_open_idx ON swap_requests (created_at, seq) WHERE status IN ('prepared', 'submitted');
CREATE INDEX swap_requests_transaction_idx ON swap_requests (transaction_id);
CREATE INDEX swap_requests_pools_idx ON swap_requests USING gin (pool_ids);
CREATE INDEX swap_requests_unnotified_idx ON swap_requests (created_at, seq)
  WHERE notified_at IS NULL AND status IN ('landed', 'failed', 'expired');

CREATE TABLE webhook_inbound (
  webhook_id   text PRIMARY KEY,
  received_at  timestamptz NOT NULL
);

CREATE TABLE webhook_deliveries (
  id               text PRIMARY KEY,
  client_id        text NOT NULL,
  url              text NOT NULL,
  event_type       text NOT NULL,
  payload          text NOT NULL,
  status           text NOT NULL CHECK (status IN ('pending', 'delivered', 'dead')),
  attempts         integer NOT NULL DEFAULT 0,
  max_attempts     integer NOT NULL CHECK (max_attempts > 0),
  next_attempt_at  timestamptz NOT NULL,
  last_error       text,
  last_status_code integer,
  delivered_at     timestamptz,
  created_at       timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
`,
};
