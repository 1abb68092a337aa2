import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import type { OAuthClientRecord } from '../ports/oauth.js';
import { type OAuthFailure, oauthError } from './errors.js';
import { param } from './params.js';
import { hashSecret } from './secrets.js';
import type { OAuthDeps } from './settings.js';

/**
 * RFC 7009 section 2.1 / 2.2: revokes the `token` of the form for the authenticated client. An
 * unknown or already invalid token is not an error (2.2); another client's token is refused;
 * revoking a refresh token also ends the access tokens of its grant (2.1).
 */
export function revokeToken(
  deps: OAuthDeps,
  client: OAuthClientRecord,
  form: URLSearchParams,
): ResultAsync<void, OAuthFailure> {
  const presented = param(form, 'token');
  if (!presented) return errAsync(oauthError('invalid_request', 'token is required'));
  const now = deps.clock.now();
  const hash = hashSecret(presented);
  return deps.store.findToken(hash).andThen((stored) => {
    if (!stored) return okAsync(undefined);
    if (stored.clientId !== client.id) {
      return errAsync(oauthError('unauthorized_client', 'the token was not issued to this client'));
    }
    const revoked =
      stored.kind === 'refresh'
        ? deps.store.revokeGrant(stored.grantId, now)
        : deps.store.revokeToken(hash, now);
    return revoked.andTee(() => {
      deps.logger?.info({ clientId: client.id, grantId: stored.grantId, kind: stored.kind }, 'token revoked');
    });
  });
}
