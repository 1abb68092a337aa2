import {
  type AuthorizationCodeRecord,
  type ConsumedCode,
  type DomainError,
  fromPortFailure,
  type OAuthClientRecord,
  type OAuthScope,
  type OAuthStore,
  type OAuthTokenRecord,
  type PublicKey,
  type RefreshRotation,
  type StoredOAuthToken,
} from '@token-actions/core';
import { ResultAsync } from 'neverthrow';
import type { SqlClient, SqlExecutor } from '../store/pg/sql.js';

/** Kept past expiry so a late replay still revokes what the code issued. */
const CODE_RETENTION_MS = 24 * 60 * 60 * 1000;

interface ClientRow {
  id: string;
  name: string;
  type: 'confidential' | 'public';
  secret_hash: string | null;
  redirect_uris: unknown;
  scopes: string;
  webhook_url: string | null;
  created_at: Date;
}

interface CodeRow {
  code_hash: string;
  client_id: string;
  redirect_uri: string;
  scope: string;
  subject: string;
  code_challenge: string;
  grant_id: string;
  expires_at: Date;
  created_at: Date;
  consumed_at: Date | null;
}

interface TokenRow {
  token_hash: string;
  kind: 'access' | 'refresh';
  grant_id: string;
  client_id: string;
  subject: string;
  scope: string;
  expires_at: Date;
  created_at: Date;
  revoked_at: Date | null;
  rotated_at: Date | null;
}

const scopeOf = (text: string): OAuthScope[] => text.split(' ').filter(Boolean) as OAuthScope[];
const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

/** jsonb arrives parsed from PostgreSQL and as text from some drivers. */
function urisOf(column: unknown): string[] {
  return (typeof column === 'string' ? JSON.parse(column) : column) as string[];
}

function clientFromRow(row: ClientRow): OAuthClientRecord {
  const uris = urisOf(row.redirect_uris);
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    ...(row.secret_hash ? { secretHash: row.secret_hash } : {}),
    redirectUris: uris as string[],
    scopes: scopeOf(row.scopes),
    ...(row.webhook_url ? { webhookUrl: row.webhook_url } : {}),
    createdAt: asDate(row.created_at),
  };
}

function codeFromRow(row: CodeRow): AuthorizationCodeRecord {
  return {
    codeHash: row.code_hash,
    clientId: row.client_id,
    redirectUri: row.redirect_uri,
    scope: scopeOf(row.scope),
    subject: row.subject as PublicKey,
    codeChallenge: row.code_challenge,
    grantId: row.grant_id,
    expiresAt: asDate(row.expires_at),
    createdAt: asDate(row.created_at),
  };
}

function tokenFromRow(row: TokenRow): StoredOAuthToken {
  return {
    tokenHash: row.token_hash,
    kind: row.kind,
    grantId: row.grant_id,
    clientId: row.client_id,
    subject: row.subject as PublicKey,
    scope: scopeOf(row.scope),
    expiresAt: asDate(row.expires_at),
    createdAt: asDate(row.created_at),
    ...(row.revoked_at ? { revokedAt: asDate(row.revoked_at) } : {}),
    ...(row.rotated_at ? { rotatedAt: asDate(row.rotated_at) } : {}),
  };
}

async function insertTokens(tx: SqlExecutor, tokens: readonly OAuthTokenRecord[]): Promise<void> {
  for (const grantId of new Set(tokens.map((t) => t.grantId))) {
    const createdAt = tokens.find((t) => t.grantId === grantId)!.createdAt;
    await tx.query('INSERT INTO oauth_grants (id, created_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [
      grantId,
      createdAt,
    ]);
  }
  for (const t of tokens) {
    await tx.query(
      `INSERT INTO oauth_tokens (token_hash, kind, grant_id, client_id, subject, scope, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [t.tokenHash, t.kind, t.grantId, t.clientId, t.subject, t.scope.join(' '), t.expiresAt, t.createdAt],
    );
  }
}

/** Notices of revoked OAuth grants and tokens (`grant:<grantId>`), from every process. */
export const OAUTH_TOKEN_CHANGES_CHANNEL = 'token_actions_oauth_token_changes';

/** OAuthStore on the project's one SQL dialect (PGlite embedded or PostgreSQL); needs migration 0100. */
export function createPgOAuthStore(sql: SqlClient): OAuthStore {
  const run = <T>(what: string, work: () => Promise<T>): ResultAsync<T, DomainError> =>
    ResultAsync.fromPromise(work(), fromPortFailure('STORE_UNAVAILABLE', `oauth store: ${what}`));

  return {
    clients: {
      upsert: (client) =>
        run('upsert client', async () => {
          await sql.query(
            `INSERT INTO oauth_clients (id, name, type, secret_hash, redirect_uris, scopes, webhook_url, created_at)
             VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8)
             ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, type = EXCLUDED.type,
               secret_hash = EXCLUDED.secret_hash, redirect_uris = EXCLUDED.redirect_uris,
               scopes = EXCLUDED.scopes, webhook_url = EXCLUDED.webhook_url`,
            [
              client.id,
              client.name,
              client.type,
              client.secretHash ?? null,
              JSON.stringify(client.redirectUris),
              client.scopes.join(' '),
              client.webhookUrl ?? null,
              client.createdAt,
            ],
          );
        }),
      get: (id) =>
        run('get client', async () => {
          const { rows } = await sql.query<ClientRow>('SELECT * FROM oauth_clients WHERE id = $1', [id]);
          return rows[0] ? clientFromRow(rows[0]) : null;
        }),
      publicRedirectUris: () =>
        run('list public redirect uris', async () => {
          const { rows } = await sql.query<Pick<ClientRow, 'redirect_uris'>>(
            `SELECT redirect_uris FROM oauth_clients WHERE type = 'public'`,
          );
          return rows.flatMap((row) => urisOf(row.redirect_uris));
        }),
    },

    insertCode: (code) =>
      run('insert code', async () => {
        await sql.query(
          `INSERT INTO oauth_codes (code_hash, client_id, redirect_uri, scope, subject, code_challenge, grant_id,
             expires_at, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (code_hash) DO NOTHING`,
          [
            code.codeHash,
            code.clientId,
            code.redirectUri,
            code.scope.join(' '),
            code.subject,
            code.codeChallenge,
            code.grantId,
            code.expiresAt,
            code.createdAt,
          ],
        );
      }),

    consumeCode: (codeHash, now) =>
      run('consume code', async (): Promise<ConsumedCode | null> => {
        // The conditional UPDATE takes the row lock, so of two concurrent redemptions exactly one matches.
        const consumed = await sql.query<CodeRow>(
          'UPDATE oauth_codes SET consumed_at = $2 WHERE code_hash = $1 AND consumed_at IS NULL RETURNING *',
          [codeHash, now],
        );
        if (consumed.rows[0]) return { state: 'consumed', code: codeFromRow(consumed.rows[0]) };
        const existing = await sql.query<CodeRow>('SELECT * FROM oauth_codes WHERE code_hash = $1', [
          codeHash,
        ]);
        return existing.rows[0] ? { state: 'replayed', code: codeFromRow(existing.rows[0]) } : null;
      }),

    issueTokens: (tokens) => run('issue tokens', () => sql.transaction((tx) => insertTokens(tx, tokens))),

    findToken: (tokenHash) =>
      run('find token', async () => {
        const { rows } = await sql.query<TokenRow>(
          `SELECT t.token_hash, t.kind, t.grant_id, t.client_id, t.subject, t.scope, t.expires_at, t.created_at,
                  COALESCE(t.revoked_at, g.revoked_at) AS revoked_at, t.rotated_at
           FROM oauth_tokens t LEFT JOIN oauth_grants g ON g.id = t.grant_id
           WHERE t.token_hash = $1`,
          [tokenHash],
        );
        return rows[0] ? tokenFromRow(rows[0]) : null;
      }),

    rotateRefreshToken: (refreshTokenHash, next, now) =>
      run('rotate refresh token', () =>
        sql.transaction(async (tx): Promise<RefreshRotation> => {
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
          await tx.query('UPDATE oauth_tokens SET rotated_at = $2 WHERE token_hash = $1', [
            refreshTokenHash,
            now,
          ]);
          await insertTokens(tx, next);
          return { state: 'rotated' };
        }),
      ),

    // Both revocations notify `grant:<id>` in the statement that revokes, so every process's
    // access-token cache (`withAccessTokenCache`) drops the grant's tokens when it commits.
    revokeToken: (tokenHash, now) =>
      run('revoke token', async () => {
        await sql.query(
          `WITH revoked AS (
             UPDATE oauth_tokens SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL RETURNING grant_id)
           SELECT pg_notify('${OAUTH_TOKEN_CHANGES_CHANNEL}', 'grant:' || grant_id) FROM revoked`,
          [tokenHash, now],
        );
      }),

    revokeGrant: (grantId, now) =>
      run('revoke grant', async () => {
        // An upsert: a grant revoked before its tokens were stored (a code replayed mid-exchange) stays revoked.
        await sql.query(
          `WITH grant_row AS (
             INSERT INTO oauth_grants (id, created_at, revoked_at) VALUES ($1, $2, $2)
             ON CONFLICT (id) DO UPDATE SET revoked_at = COALESCE(oauth_grants.revoked_at, EXCLUDED.revoked_at)
             RETURNING id)
           SELECT pg_notify('${OAUTH_TOKEN_CHANGES_CHANNEL}', 'grant:' || id) FROM grant_row`,
          [grantId, now],
        );
      }),

    insertNonce: (nonce) =>
      run('insert nonce', async () => {
        await sql.query('INSERT INTO oauth_siws_nonces (nonce, expires_at) VALUES ($1, $2)', [
          nonce.nonce,
          nonce.expiresAt,
        ]);
      }),

    consumeNonce: (nonce, now) =>
      run('consume nonce', async () => {
        const { rows } = await sql.query<{ expires_at: Date }>(
          'DELETE FROM oauth_siws_nonces WHERE nonce = $1 RETURNING expires_at',
          [nonce],
        );
        return rows[0] ? asDate(rows[0].expires_at).getTime() > now.getTime() : false;
      }),

    purgeExpired: (now) =>
      run('purge expired', () =>
        sql.transaction(async (tx) => {
          const codeCutoff = new Date(now.getTime() - CODE_RETENTION_MS);
          const codes = await tx.query('DELETE FROM oauth_codes WHERE expires_at <= $1 RETURNING 1', [
            codeCutoff,
          ]);
          const nonces = await tx.query('DELETE FROM oauth_siws_nonces WHERE expires_at <= $1 RETURNING 1', [
            now,
          ]);
          const tokens = await tx.query('DELETE FROM oauth_tokens WHERE expires_at <= $1 RETURNING 1', [now]);
          return codes.rows.length + nonces.rows.length + tokens.rows.length;
        }),
      ),
  };
}
