import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import type { DomainError } from '../errors.js';
import type { OAuthClientRecord, OAuthScope, OAuthStore } from '../ports/oauth.js';
import type { OAuthErrorCode } from './errors.js';
import { OAUTH_SCOPES, param, parseScope, repeatedParam, withParams } from './params.js';
import { isS256Challenge } from './pkce.js';
import type { OAuthSettings } from './settings.js';

/** An authorization request whose client and redirect URI are known good (RFC 6749 section 4.1.1). */
export interface AuthorizationRequest {
  readonly client: OAuthClientRecord;
  readonly redirectUri: string;
  readonly scope: readonly OAuthScope[];
  readonly state?: string;
  /** RFC 7636 section 4.3: always S256. */
  readonly codeChallenge: string;
}

/**
 * RFC 6749 section 4.1.2.1: until the client and its redirect URI are verified, the user is told
 * and nothing is redirected (an open redirector would otherwise be one request away).
 */
export interface AuthorizationPageError {
  readonly kind: 'page';
  readonly title: string;
  readonly detail: string;
}

/** RFC 6749 section 4.1.2.1: the error travels back on the redirect URI (with RFC 9207 `iss`). */
export interface AuthorizationRedirect {
  readonly kind: 'redirect';
  readonly location: string;
}

export type AuthorizationFailure = AuthorizationPageError | AuthorizationRedirect | DomainError;

export function isAuthorizationPageError(failure: AuthorizationFailure): failure is AuthorizationPageError {
  return 'kind' in failure && failure.kind === 'page';
}

export function isAuthorizationRedirect(failure: AuthorizationFailure): failure is AuthorizationRedirect {
  return 'kind' in failure && failure.kind === 'redirect';
}

/** Authorization request parameters; any of them sent twice makes the request invalid (section 3.1). */
export const AUTHORIZE_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

export function pageError(title: string, detail: string): AuthorizationPageError {
  return { kind: 'page', title, detail };
}

/** RFC 6749 section 4.1.2.1 and RFC 9207 section 2: where the user agent is sent with an error. */
export function errorRedirect(
  settings: Pick<OAuthSettings, 'issuer'>,
  request: { readonly redirectUri: string; readonly state?: string },
  error: OAuthErrorCode,
  description: string,
): AuthorizationRedirect {
  return {
    kind: 'redirect',
    location: withParams(request.redirectUri, {
      error,
      error_description: description,
      state: request.state,
      iss: settings.issuer,
    }),
  };
}

/**
 * RFC 6749 section 4.1.1 (request), 4.1.2.1 (errors), 3.1.2.3 / RFC 9700 section 2.1 (exact
 * redirect URI match), 3.3 (scope), RFC 7636 section 4.3 (PKCE S256 required, RFC 9700 2.1.1).
 */
export function validateAuthorizationRequest(
  deps: { readonly store: OAuthStore },
  settings: Pick<OAuthSettings, 'issuer'>,
  params: URLSearchParams,
): ResultAsync<AuthorizationRequest, AuthorizationFailure> {
  const repeated = repeatedParam(params, AUTHORIZE_PARAMS);
  const clientId = param(params, 'client_id');
  const found = clientId && !repeated ? deps.store.clients.get(clientId) : okAsync(null);
  return found.andThen((client) => {
    if (!client) {
      return errAsync(
        pageError(
          'Unknown application',
          repeated
            ? `the parameter ${repeated} was sent more than once`
            : 'client_id is missing or not registered',
        ),
      );
    }
    const redirectUri = param(params, 'redirect_uri');
    if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
      return errAsync(
        pageError(
          'Invalid redirect URI',
          'redirect_uri is missing or does not exactly match one registered for this application',
        ),
      );
    }
    const state = param(params, 'state');
    const target = { redirectUri, ...(state !== undefined ? { state } : {}) };
    const fail = (error: OAuthErrorCode, description: string) =>
      errAsync(errorRedirect(settings, target, error, description));
    if (param(params, 'response_type') !== 'code') {
      return fail('unsupported_response_type', 'only response_type=code is supported');
    }
    const codeChallenge = param(params, 'code_challenge');
    if (!codeChallenge) return fail('invalid_request', 'code_challenge is required (PKCE S256)');
    if (param(params, 'code_challenge_method') !== 'S256') {
      return fail('invalid_request', 'code_challenge_method must be S256');
    }
    if (!isS256Challenge(codeChallenge))
      return fail('invalid_request', 'code_challenge is not a S256 challenge');
    const requested = param(params, 'scope');
    const scope = requested === undefined ? ['read' as const] : parseScope(requested);
    if (!scope) return fail('invalid_scope', `scope must be made of: ${OAUTH_SCOPES.join(' ')}`);
    if (!scope.every((s) => client.scopes.includes(s))) {
      return fail('invalid_scope', 'the application may not request this scope');
    }
    return okAsync<AuthorizationRequest>({ client, ...target, scope, codeChallenge });
  });
}

/** The parameters the consent form sends back, so its POST is checked exactly like the GET. */
export function consentFormParams(request: AuthorizationRequest): Record<string, string> {
  return {
    response_type: 'code',
    client_id: request.client.id,
    redirect_uri: request.redirectUri,
    scope: request.scope.join(' '),
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    ...(request.state !== undefined ? { state: request.state } : {}),
  };
}
