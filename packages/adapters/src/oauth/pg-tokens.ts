import type { DomainError, OAuthStore, OAuthTokenRecord, RefreshRotation } from '@token-actions/core';
import type { ResultAsync } from 'neverthrow';
import type { SqlClient, SqlExecutor } from '../store/pg/sql.js';
import { statement } from '../store/pg/statement.js';
import { type TokenRow, tokenFromRow } from './pg-rows.js';

/** Notices of revoked OAuth grants and tokens (`grant:<grantId>`), from every process. */
export const OAUTH_TOKEN_CHANGES_CHANNEL = 'token_actions_oauth_token_changes';

const INSERT_GRANT = 'INSERT INTO oauth_grants (id, created_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING';

const INSERT_TOKEN = statement(
  ['tokenHash', 'kind', 'grantId', 'clientId', 'subject', 'scope', 'expiresAt', 'createdAt'],
  (p) =>
    `INSERT INTO oauth_tokens (token_hash, kind, grant_id, client_id, subject, scope, expires_at, created_at)
     VALUES (${p.tokenHash}, ${p.kind}, ${p.grantId}, ${p.clientId}, ${p.subject}, ${p.scope}, ${p.expiresAt}, ${p.createdAt})`,
);

/** A token with its grant's revocation: revoking the grant revokes every token it issued. */
const SELECT_TOKEN = `SELECT t.token_hash, t.kind, t.grant_id, t.client_id, t.subject, t.scope, t.expires_at, t.created_at,
    COALESCE(t.revoked_at, g.revoked_at) AS revoked_at, t.rotated_at
  FROM oauth_tokens t LEFT JOIN oauth_grants g ON g.id = t.grant_id
  WHERE t.token_hash = $1`;

// Both revocations notify `grant:<id>` in the statement that revokes, so every process's
// access-token cache (`withAccessTokenCache`) drops the grant's tokens when it commits.
const REVOKE_TOKEN = `WITH revoked AS (
    UPDATE oauth_tokens SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL RETURNING grant_id)
  SELECT pg_notify('${OAUTH_TOKEN_CHANGES_CHANNEL}', 'grant:' || grant_id) FROM revoked`;

/** An upsert: a grant revoked before its tokens were stored (a code replayed mid-exchange) stays revoked. */
const REVOKE_GRANT = `WITH grant_row AS (
    INSERT INTO oauth_grants (id, created_at, revoked_at) VALUES ($1, $2, $2)
    ON CONFLICT (id) DO UPDATE SET revoked_at = COALESCE(oauth_grants.revoked_at, EXCLUDED.revoked_at)
    RETURNING id)
  SELECT pg_notify('${OAUTH_TOKEN_CHANGES_CHANNEL}', 'grant:' || id) FROM grant_row`;

async function insertTokens(tx: SqlExecutor, tokens: readonly OAuthTokenRecord[]): Promise<void> {
  for (const grantId of new Set(tokens.map((t) => t.grantId))) {
    const createdAt = tokens.find((t) => t.grantId === grantId)!.createdAt;
    await tx.query(INSERT_GRANT, [grantId, createdAt]);
  }
  for (const t of tokens) {
    await tx.query(INSERT_TOKEN.text, INSERT_TOKEN.params({ ...t, scope: t.scope.join(' ') }));
  }
}

/** Rotates a refresh token once: a second use of it is reported as reuse, for the caller to revoke its grant. */
async function rotate(
  tx: SqlExecutor,
  refreshTokenHash: string,
  next: readonly OAuthTokenRecord[],
  now: Date,
): Promise<RefreshRotation> {
  const found = await tx.query<{ grant_id: string }>(
    `SELECT grant_id FROM oauth_tokens WHERE token_hash = $1 AND kind = 'refresh'`,
    [refreshTokenHash],
  );
  const grantId = found.rows[0]?.grant_id;
  if (!grantId) return { state: 'inactive' };
  // Lock order grant -> token, the same as revokeGrant, so rotation and revocation serialise.
  const grant = await tx.query<{ revoked_at: Date | null }>(
    'SELECT revoked_at FROM oauth_grants WHERE id = $1 FOR UPDATE',
    [grantId],
  );
  if (!grant.rows[0] || grant.rows[0].revoked_at) return { state: 'inactive' };
  const token = await tx.query<{ revoked_at: Date | null; rotated_at: Date | null }>(
    'SELECT revoked_at, rotated_at FROM oauth_tokens WHERE token_hash = $1 FOR UPDATE',
    [refreshTokenHash],
  );
  const row = token.rows[0];
  if (!row || row.revoked_at) return { state: 'inactive' };
  if (row.rotated_at) return { state: 'reused', grantId };
  await tx.query('UPDATE oauth_tokens SET rotated_at = $2 WHERE token_hash = $1', [refreshTokenHash, now]);
  await insertTokens(tx, next);
  return { state: 'rotated' };
}

type Run = <T>(what: string, work: () => Promise<T>) => ResultAsync<T, DomainError>;

/** Access and refresh tokens: issued per grant, rotated once, revoked with their grant. */
export function createPgTokens(
  sql: SqlClient,
  run: Run,
): Pick<OAuthStore, 'issueTokens' | 'findToken' | 'rotateRefreshToken' | 'revokeToken' | 'revokeGrant'> {
  return {
    issueTokens: (tokens) => run('issue tokens', () => sql.transaction((tx) => insertTokens(tx, tokens))),

    findToken: (tokenHash) =>
      run('find token', async () => {
        const { rows } = await sql.query<TokenRow>(SELECT_TOKEN, [tokenHash]);
        return rows[0] ? tokenFromRow(rows[0]) : null;
      }),

    rotateRefreshToken: (refreshTokenHash, next, now) =>
      run('rotate refresh token', () => sql.transaction((tx) => rotate(tx, refreshTokenHash, next, now))),

    revokeToken: (tokenHash, now) =>
      run('revoke token', async () => {
        await sql.query(REVOKE_TOKEN, [tokenHash, now]);
      }),

    revokeGrant: (grantId, now) =>
      run('revoke grant', async () => {
        await sql.query(REVOKE_GRANT, [grantId, now]);
      }),
  };
}
