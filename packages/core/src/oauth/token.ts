import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import type { OAuthClientRecord, OAuthScope } from '../ports/oauth.js';
import { type OAuthFailure, oauthError } from './errors.js';
import { param, parseScope } from './params.js';
import { isCodeVerifier, verifyS256 } from './pkce.js';
import { hashSecret } from './secrets.js';
import type { OAuthDeps, OAuthSettings } from './settings.js';
import { type MintedTokens, mintTokenPair } from './tokens.js';

/** RFC 6749 section 5.1: the successful token response (sent with Cache-Control: no-store). */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
  readonly refresh_token: string;
  readonly scope: string;
}

export interface AuthorizationCodeGrant {
  readonly code: string | undefined;
  readonly redirectUri: string | undefined;
  readonly codeVerifier: string | undefined;
}

export interface RefreshTokenGrant {
  readonly refreshToken: string | undefined;
  /** Space-delimited; undefined means the scope originally granted. */
  readonly scope: string | undefined;
}

type TokenSettings = Pick<OAuthSettings, 'accessTokenTtlSec' | 'refreshTokenTtlSec'>;

function tokenResponse(
  settings: TokenSettings,
  tokens: MintedTokens,
  scope: readonly OAuthScope[],
): TokenResponse {
  return {
    access_token: tokens.accessToken,
    token_type: 'Bearer',
    expires_in: settings.accessTokenTtlSec,
    refresh_token: tokens.refreshToken,
    scope: scope.join(' '),
  };
}

const invalidGrant = (description: string) => errAsync(oauthError('invalid_grant', description));
const missing = (description: string) => errAsync(oauthError('invalid_request', description));

/**
 * RFC 6749 section 4.1.3 / 4.1.4: redeems an authorization code issued to this (authenticated)
 * client. The code is single-use: a second redemption revokes every token the first issued (RFC
 * 6749 section 4.1.2, RFC 9700 section 4.5.3); `redirect_uri` must equal the one of the request
 * (4.1.3), the code must be unexpired, and `code_verifier` must match its S256 challenge (RFC
 * 7636 section 4.6).
 */
export function exchangeAuthorizationCode(
  deps: OAuthDeps,
  settings: TokenSettings,
  client: OAuthClientRecord,
  grant: AuthorizationCodeGrant,
): ResultAsync<TokenResponse, OAuthFailure> {
  const { code, redirectUri, codeVerifier } = grant;
  if (!code) return missing('code is required');
  if (!redirectUri) return missing('redirect_uri is required');
  if (!codeVerifier) return missing('code_verifier is required (PKCE)');
  const now = deps.clock.now();
  return deps.store.consumeCode(hashSecret(code), now).andThen((consumed) => {
    if (!consumed) return invalidGrant('the authorization code is invalid');
    const record = consumed.code;
    if (consumed.state === 'replayed') {
      return deps.store.revokeGrant(record.grantId, now).andThen(() => {
        deps.logger?.warn(
          { clientId: client.id, grantId: record.grantId },
          'authorization code replayed; grant revoked',
        );
        return invalidGrant('the authorization code was already used');
      });
    }
    if (record.clientId !== client.id)
      return invalidGrant('the authorization code was issued to another client');
    if (record.expiresAt.getTime() <= now.getTime())
      return invalidGrant('the authorization code has expired');
    if (record.redirectUri !== redirectUri) {
      return invalidGrant('redirect_uri does not match the authorization request');
    }
    if (!isCodeVerifier(codeVerifier) || !verifyS256(codeVerifier, record.codeChallenge)) {
      return invalidGrant('code_verifier does not match the code_challenge');
    }
    const tokens = mintTokenPair({
      grantId: record.grantId,
      clientId: client.id,
      subject: record.subject,
      accessScope: record.scope,
      refreshScope: record.scope,
      now,
      lifetimes: settings,
    });
    return deps.store.issueTokens(tokens.records).map(() => {
      deps.logger?.info(
        { clientId: client.id, subject: record.subject, grantId: record.grantId },
        'tokens issued',
      );
      return tokenResponse(settings, tokens, record.scope);
    });
  });
}

/**
 * RFC 6749 section 6 with RFC 9700 section 4.14.2: refresh token rotation. Each refresh token is
 * exchanged once for a new pair; presenting one that was already exchanged revokes the whole
 * grant (reuse detection), since either the client or an attacker holds a stolen copy. A refresh
 * may narrow the access token's scope, never widen it; the new refresh token keeps the grant's.
 */
export function refreshTokens(
  deps: OAuthDeps,
  settings: TokenSettings,
  client: OAuthClientRecord,
  grant: RefreshTokenGrant,
): ResultAsync<TokenResponse, OAuthFailure> {
  if (!grant.refreshToken) return missing('refresh_token is required');
  const hash = hashSecret(grant.refreshToken);
  const now = deps.clock.now();
  const invalid = () => invalidGrant('the refresh token is invalid');
  return deps.store.findToken(hash).andThen((stored) => {
    if (stored?.kind !== 'refresh' || stored.clientId !== client.id) return invalid();
    const reuse = () =>
      deps.store.revokeGrant(stored.grantId, now).andThen(() => {
        deps.logger?.warn(
          { clientId: client.id, grantId: stored.grantId },
          'refresh token reused; grant revoked',
        );
        return invalid();
      });
    if (stored.rotatedAt && !stored.revokedAt) return reuse();
    if (stored.revokedAt || stored.expiresAt.getTime() <= now.getTime()) return invalid();
    const scope = grant.scope === undefined ? [...stored.scope] : parseScope(grant.scope);
    if (!scope?.every((s) => stored.scope.includes(s))) {
      return errAsync(
        oauthError('invalid_scope', 'the requested scope exceeds the scope originally granted'),
      );
    }
    const tokens = mintTokenPair({
      grantId: stored.grantId,
      clientId: client.id,
      subject: stored.subject,
      accessScope: scope,
      refreshScope: stored.scope,
      now,
      lifetimes: settings,
    });
    return deps.store.rotateRefreshToken(hash, tokens.records, now).andThen((rotation) => {
      if (rotation.state === 'reused') return reuse();
      if (rotation.state === 'inactive') return invalid();
      deps.logger?.info({ clientId: client.id, grantId: stored.grantId }, 'refresh token rotated');
      return okAsync(tokenResponse(settings, tokens, scope));
    });
  });
}

/**
 * RFC 6749 section 3.2 / 5.2: the token endpoint for an authenticated client, dispatching on
 * `grant_type` (section 4.1.3 `authorization_code`, section 6 `refresh_token`).
 */
export function grantTokens(
  deps: OAuthDeps,
  settings: TokenSettings,
  client: OAuthClientRecord,
  form: URLSearchParams,
): ResultAsync<TokenResponse, OAuthFailure> {
  const grantType = param(form, 'grant_type');
  if (grantType === 'authorization_code') {
    return exchangeAuthorizationCode(deps, settings, client, {
      code: param(form, 'code'),
      redirectUri: param(form, 'redirect_uri'),
      codeVerifier: param(form, 'code_verifier'),
    });
  }
  if (grantType === 'refresh_token') {
    return refreshTokens(deps, settings, client, {
      refreshToken: param(form, 'refresh_token'),
      scope: param(form, 'scope'),
    });
  }
  if (grantType === undefined) return missing('grant_type is required');
  return errAsync(
    oauthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token'),
  );
}
