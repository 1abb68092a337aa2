import type {
  AuthorizationCodeRecord,
  OAuthClientRecord,
  OAuthScope,
  PublicKey,
  StoredOAuthToken,
} from '@token-actions/core';

/** How the OAuth tables' rows map to core records, read by column name. */

export interface ClientRow {
  id: string;
  name: string;
  type: 'confidential' | 'public';
  secret_hash: string | null;
  redirect_uris: unknown;
  scopes: string;
  webhook_url: string | null;
  created_at: Date;
}

export interface CodeRow {
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

export interface TokenRow {
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

export const scopeOf = (text: string): OAuthScope[] => text.split(' ').filter(Boolean) as OAuthScope[];
export const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

/** jsonb arrives parsed from PostgreSQL and as text from some drivers. */
export function urisOf(column: unknown): string[] {
  return (typeof column === 'string' ? JSON.parse(column) : column) as string[];
}

export function clientFromRow(row: ClientRow): OAuthClientRecord {
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

export function codeFromRow(row: CodeRow): AuthorizationCodeRecord {
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

export function tokenFromRow(row: TokenRow): StoredOAuthToken {
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
