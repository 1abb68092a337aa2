import { errAsync, type ResultAsync } from 'neverthrow';
import type { OAuthClientRecord } from '../ports/oauth.js';
import { type OAuthFailure, oauthError } from './errors.js';
import { param } from './params.js';
import { hashSecret } from './secrets.js';
import type { OAuthDeps, OAuthSettings } from './settings.js';
import { isActive } from './tokens.js';

/** RFC 7662 section 2.2. */
export type IntrospectionResponse =
  | { readonly active: false }
  | {
      readonly active: true;
      readonly scope: string;
      readonly client_id: string;
      readonly sub: string;
      readonly token_type?: 'Bearer';
      readonly exp: number;
      readonly iat: number;
      readonly iss: string;
    };

/**
 * RFC 7662 section 2.1 / 2.2: the state of the form's `token`, for an authenticated confidential
 * client. Anything the caller may not see (unknown, another client's, revoked, expired, rotated)
 * is simply `{active: false}`, so the endpoint cannot be used to probe other clients' tokens
 * (section 4).
 */
export function introspectToken(
  deps: OAuthDeps,
  settings: Pick<OAuthSettings, 'issuer'>,
  client: OAuthClientRecord,
  form: URLSearchParams,
): ResultAsync<IntrospectionResponse, OAuthFailure> {
  if (client.type !== 'confidential') {
    return errAsync(oauthError('invalid_client', 'introspection requires a confidential client'));
  }
  const presented = param(form, 'token');
  if (!presented) return errAsync(oauthError('invalid_request', 'token is required'));
  const now = deps.clock.now();
  return deps.store.findToken(hashSecret(presented)).map((stored): IntrospectionResponse => {
    if (!stored || stored.clientId !== client.id || !isActive(stored, now)) return { active: false };
    return {
      active: true,
      scope: stored.scope.join(' '),
      client_id: stored.clientId,
      sub: stored.subject,
      ...(stored.kind === 'access' ? { token_type: 'Bearer' as const } : {}),
      exp: Math.floor(stored.expiresAt.getTime() / 1000),
      iat: Math.floor(stored.createdAt.getTime() / 1000),
      iss: settings.issuer,
    };
  });
}
