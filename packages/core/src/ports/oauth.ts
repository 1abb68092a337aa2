import type { ResultAsync } from 'neverthrow';
import type { PublicKey } from '../domain/public-key.js';
import type { DomainError } from '../errors.js';

/**
 * Storage of the OAuth 2.0 authorization server. Every secret (client secret, code, access and
 * refresh token) reaches the store only as a hash computed at the edge, so a leaked database
 * yields nothing that can be presented back to the service.
 */

/** `read` for GET /project/swap, `write` for the POST routes of interface B. */
export type OAuthScope = 'read' | 'write';

export type OAuthClientType = 'confidential' | 'public';
export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface OAuthClientRecord {
  readonly id: string;
  readonly name: string;
  readonly type: OAuthClientType;
  /** Hex SHA-256 of the client secret; absent for public clients. */
  readonly secretHash?: string;
  /** Compared by exact string match (RFC 9700 section 2.1). */
  readonly redirectUris: readonly string[];
  /** The scopes this client may ever be granted. */
  readonly scopes: readonly OAuthScope[];
  /** Where terminal statuses of this client's swaps are delivered (Standard Webhooks). */
  readonly webhookUrl?: string;
  readonly createdAt: Date;
}

export interface AuthorizationCodeRecord {
  /** Hex SHA-256 of the code. */
  readonly codeHash: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scope: readonly OAuthScope[];
  /** The wallet that signed in and approved. */
  readonly subject: PublicKey;
  /** BASE64URL(SHA-256(code_verifier)); only S256 is accepted. */
  readonly codeChallenge: string;
  /** The grant every token issued from this code belongs to: a replayed code revokes it. */
  readonly grantId: string;
  readonly expiresAt: Date;
  readonly createdAt: Date;
}

export type ConsumedCode =
  | { readonly state: 'consumed'; readonly code: AuthorizationCodeRecord }
  /** The code had already been redeemed: the caller must revoke `code.grantId`. */
  | { readonly state: 'replayed'; readonly code: AuthorizationCodeRecord };

export type OAuthTokenKind = 'access' | 'refresh';

export interface OAuthTokenRecord {
  /** Hex SHA-256 of the opaque token. */
  readonly tokenHash: string;
  readonly kind: OAuthTokenKind;
  readonly grantId: string;
  readonly clientId: string;
  readonly subject: PublicKey;
  readonly scope: readonly OAuthScope[];
  readonly expiresAt: Date;
  readonly createdAt: Date;
}

export interface StoredOAuthToken extends OAuthTokenRecord {
  /** Set when this token, or the grant it belongs to, was revoked. */
  readonly revokedAt?: Date;
  /** Refresh tokens only: set once the token was exchanged for a new pair. */
  readonly rotatedAt?: Date;
}

export type RefreshRotation =
  | { readonly state: 'rotated' }
  /** The refresh token had already been exchanged: the caller must revoke the grant (RFC 9700 4.14.2). */
  | { readonly state: 'reused'; readonly grantId: string }
  /** Unknown, revoked, or its grant revoked. */
  | { readonly state: 'inactive' };

export interface SiwsNonceRecord {
  readonly nonce: string;
  readonly expiresAt: Date;
}

export interface OAuthClientStore {
  /** Inserts a client, or replaces the one with the same id (used to rotate the demo client's secret). */
  upsert(client: OAuthClientRecord): ResultAsync<void, DomainError>;
  get(id: string): ResultAsync<OAuthClientRecord | null, DomainError>;
  /** Every redirect URI of every public client: the browser apps whose origins CORS admits by default. */
  publicRedirectUris(): ResultAsync<readonly string[], DomainError>;
}

export interface OAuthStore {
  readonly clients: OAuthClientStore;

  insertCode(code: AuthorizationCodeRecord): ResultAsync<void, DomainError>;
  /** Atomically marks the code redeemed. Exactly one caller ever sees 'consumed'; null when unknown. */
  consumeCode(codeHash: string, now: Date): ResultAsync<ConsumedCode | null, DomainError>;

  /** Stores the first tokens of a grant (after its code was consumed). Tokens of an already
   * revoked grant are stored but never active. */
  issueTokens(tokens: readonly OAuthTokenRecord[]): ResultAsync<void, DomainError>;
  findToken(tokenHash: string): ResultAsync<StoredOAuthToken | null, DomainError>;
  /** In one transaction, serialised with `revokeGrant` of the same grant: marks the refresh token
   * rotated and stores `next`, unless it was rotated or revoked before. */
  rotateRefreshToken(
    refreshTokenHash: string,
    next: readonly OAuthTokenRecord[],
    now: Date,
  ): ResultAsync<RefreshRotation, DomainError>;
  /** Revokes one token. Unknown hashes are ignored (RFC 7009 section 2.2). */
  revokeToken(tokenHash: string, now: Date): ResultAsync<void, DomainError>;
  /** Revokes every token of a grant, including ones stored after this call. */
  revokeGrant(grantId: string, now: Date): ResultAsync<void, DomainError>;

  insertNonce(nonce: SiwsNonceRecord): ResultAsync<void, DomainError>;
  /** Deletes the nonce; true only for the first caller and only before it expires. */
  consumeNonce(nonce: string, now: Date): ResultAsync<boolean, DomainError>;
  /** Removes nonces and tokens expired at `now`, and codes expired a day before it (kept that long
   * so a late replay still revokes what they issued); returns how many rows went. */
  purgeExpired(now: Date): ResultAsync<number, DomainError>;
}
