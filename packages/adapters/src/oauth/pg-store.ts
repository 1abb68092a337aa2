import { type ConsumedCode, type DomainError, fromPortFailure, type OAuthStore } from '@token-actions/core';
import { ResultAsync } from 'neverthrow';
import type { SqlClient } from '../store/pg/sql.js';
import { statement } from '../store/pg/statement.js';
import { asDate, type ClientRow, type CodeRow, clientFromRow, codeFromRow, urisOf } from './pg-rows.js';
import { createPgTokens } from './pg-tokens.js';

export { OAUTH_TOKEN_CHANGES_CHANNEL } from './pg-tokens.js';

/** Kept past expiry so a late replay still revokes what the code issued. */
const CODE_RETENTION_MS = 24 * 60 * 60 * 1000;

const UPSERT_CLIENT = statement(
  ['id', 'name', 'type', 'secretHash', 'redirectUris', 'scopes', 'webhookUrl', 'createdAt'],
  (p) =>
    `INSERT INTO oauth_clients (id, name, type, secret_hash, redirect_uris, scopes, webhook_url, created_at)
     VALUES (${p.id}, ${p.name}, ${p.type}, ${p.secretHash}, ${p.redirectUris}::jsonb, ${p.scopes}, ${p.webhookUrl}, ${p.createdAt})
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, type = EXCLUDED.type,
       secret_hash = EXCLUDED.secret_hash, redirect_uris = EXCLUDED.redirect_uris,
       scopes = EXCLUDED.scopes, webhook_url = EXCLUDED.webhook_url`,
);

const INSERT_CODE = statement(
  [
    'codeHash',
    'clientId',
    'redirectUri',
    'scope',
    'subject',
    'codeChallenge',
    'grantId',
    'expiresAt',
    'createdAt',
  ],
  (p) =>
    `INSERT INTO oauth_codes (code_hash, client_id, redirect_uri, scope, subject, code_challenge, grant_id,
       expires_at, created_at)
     VALUES (${p.codeHash}, ${p.clientId}, ${p.redirectUri}, ${p.scope}, ${p.subject}, ${p.codeChallenge},
       ${p.grantId}, ${p.expiresAt}, ${p.createdAt})
     ON CONFLICT (code_hash) DO NOTHING`,
);

/** OAuthStore on the project's one SQL dialect (PGlite embedded or PostgreSQL); needs migration 0100. */
export function createPgOAuthStore(sql: SqlClient): OAuthStore {
  const run = <T>(what: string, work: () => Promise<T>): ResultAsync<T, DomainError> =>
    ResultAsync.fromPromise(work(), fromPortFailure('STORE_UNAVAILABLE', `oauth store: ${what}`));

  return {
    clients: {
      upsert: (client) =>
        run('upsert client', async () => {
          await sql.query(
            UPSERT_CLIENT.text,
            UPSERT_CLIENT.params({
              id: client.id,
              name: client.name,
              type: client.type,
              secretHash: client.secretHash ?? null,
              redirectUris: JSON.stringify(client.redirectUris),
              scopes: client.scopes.join(' '),
              webhookUrl: client.webhookUrl ?? null,
              createdAt: client.createdAt,
            }),
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
        await sql.query(INSERT_CODE.text, INSERT_CODE.params({ ...code, scope: code.scope.join(' ') }));
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

    ...createPgTokens(sql, run),

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
