import type { Migration } from './types.js';

/**
 * OAuth 2.0 authorization server state. Secrets (client secrets, codes, tokens) are stored only as
 * hex SHA-256 hashes. A grant row exists so that revoking a grant and rotating one of its refresh
 * tokens serialise on one row lock, and so a grant revoked before its tokens were stored stays revoked.
 */
export const migration0100: Migration = {
  id: '0100_oauth',
  sql: `
CREATE TABLE IF NOT EXISTS oauth_clients (
  id text PRIMARY KEY,
  name text NOT NULL,
  type text NOT NULL CHECK (type IN ('confidential', 'public')),
  secret_hash text,
  redirect_uris jsonb NOT NULL,
  scopes text NOT NULL,
  webhook_url text,
  created_at timestamptz NOT NULL,
  CHECK ((type = 'confidential') = (secret_hash IS NOT NULL))
);

CREATE TABLE IF NOT EXISTS oauth_codes (
  code_hash text PRIMARY KEY,
  client_id text NOT NULL,
  redirect_uri text NOT NULL,
  scope text NOT NULL,
  subject text NOT NULL,
  code_challenge text NOT NULL,
  grant_id text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX IF NOT EXISTS oauth_codes_expires_at_idx ON oauth_codes (expires_at);

CREATE TABLE IF NOT EXISTS oauth_grants (
  id text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);

CREATE TABLE IF NOT EXISTS oauth_tokens (
  token_hash text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
  grant_id text NOT NULL,
  client_id text NOT NULL,
  subject text NOT NULL,
  scope text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz,
  rotated_at timestamptz
);
CREATE INDEX IF NOT EXISTS oauth_tokens_grant_id_idx ON oauth_tokens (grant_id);
CREATE INDEX IF NOT EXISTS oauth_tokens_expires_at_idx ON oauth_tokens (expires_at);

CREATE TABLE IF NOT EXISTS oauth_siws_nonces (
  nonce text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS oauth_siws_nonces_expires_at_idx ON oauth_siws_nonces (expires_at);
`,
};
