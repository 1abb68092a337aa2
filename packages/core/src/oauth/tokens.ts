import type { ResultAsync } from 'neverthrow';
import type { PublicKey } from '../domain/public-key.js';
import type { DomainError } from '../errors.js';
import type { OAuthScope, OAuthStore, OAuthTokenRecord, StoredOAuthToken } from '../ports/oauth.js';
import { hashSecret, randomSecret, SECRET_PREFIX } from './secrets.js';

/** Who an access token speaks for: the wallet that approved, through which client, with what scope. */
export interface BearerPrincipal {
  readonly subject: PublicKey;
  readonly clientId: string;
  readonly scope: readonly OAuthScope[];
  readonly expiresAt: Date;
}

export interface TokenLifetimes {
  readonly accessTokenTtlSec: number;
  readonly refreshTokenTtlSec: number;
}

export interface MintedTokens {
  /** What the token endpoint returns; the only place the raw tokens ever exist. */
  readonly accessToken: string;
  readonly refreshToken: string;
  /** What the store keeps: hashes only. */
  readonly records: readonly [OAuthTokenRecord, OAuthTokenRecord];
}

/** RFC 6749 section 10.10: opaque tokens with 256 bits of entropy, stored only as hashes. */
export function mintTokenPair(input: {
  grantId: string;
  clientId: string;
  subject: PublicKey;
  accessScope: readonly OAuthScope[];
  refreshScope: readonly OAuthScope[];
  now: Date;
  lifetimes: TokenLifetimes;
}): MintedTokens {
  const accessToken = randomSecret(SECRET_PREFIX.accessToken);
  const refreshToken = randomSecret(SECRET_PREFIX.refreshToken);
  const base = {
    grantId: input.grantId,
    clientId: input.clientId,
    subject: input.subject,
    createdAt: input.now,
  };
  const at = (sec: number) => new Date(input.now.getTime() + sec * 1000);
  return {
    accessToken,
    refreshToken,
    records: [
      {
        ...base,
        tokenHash: hashSecret(accessToken),
        kind: 'access',
        scope: [...input.accessScope],
        expiresAt: at(input.lifetimes.accessTokenTtlSec),
      },
      {
        ...base,
        tokenHash: hashSecret(refreshToken),
        kind: 'refresh',
        scope: [...input.refreshScope],
        expiresAt: at(input.lifetimes.refreshTokenTtlSec),
      },
    ],
  };
}

/** Active = known, not revoked (nor its grant), not expired, and for refresh tokens not yet rotated. */
export function isActive(token: StoredOAuthToken, now: Date): boolean {
  return !token.revokedAt && !token.rotatedAt && token.expiresAt.getTime() > now.getTime();
}

/**
 * RFC 6750 section 2.1 / 3.1: resolves a presented bearer access token; null for anything that is
 * not an active access token (the resource server answers `invalid_token`).
 */
export function resolveAccessToken(
  store: OAuthStore,
  token: string,
  now: Date,
): ResultAsync<BearerPrincipal | null, DomainError> {
  return store
    .findToken(hashSecret(token))
    .map((found) =>
      found && found.kind === 'access' && isActive(found, now)
        ? { subject: found.subject, clientId: found.clientId, scope: found.scope, expiresAt: found.expiresAt }
        : null,
    );
}
