import type { DomainError } from '../errors.js';

/**
 * The closed set of OAuth error codes this server sends: RFC 6749 section 4.1.2.1 (authorization
 * endpoint) and 5.2 (token endpoint), RFC 6750 section 3.1 (bearer tokens), RFC 7009 section 2.2.1
 * (revocation) and RFC 7591 section 3.2.2 (client registration). Clients key on these strings.
 */
export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'unsupported_response_type',
  'invalid_scope',
  'access_denied',
  'server_error',
  'temporarily_unavailable',
  'invalid_token',
  'insufficient_scope',
  'unsupported_token_type',
  'invalid_redirect_uri',
  'invalid_client_metadata',
] as const;

export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/** An error the protocol itself defines; `description` is `error_description`, safe to show. */
export interface OAuthError {
  readonly error: OAuthErrorCode;
  readonly description: string;
  /**
   * The WWW-Authenticate challenge of a 401: `basic` when the client tried the Authorization
   * header (RFC 6749 section 5.2), `bearer` for the admin bearer token (RFC 6750 section 3).
   */
  readonly challenge?: 'basic' | 'bearer';
  /** Refusals before the protocol runs that still answer with an OAuth body. */
  readonly refusal?: { readonly status: 413 } | { readonly status: 429; readonly retryAfterSec: number };
}

/** What a protocol function can fail with: its own error, or a port (the store) being down. */
export type OAuthFailure = OAuthError | DomainError;

export function oauthError(
  error: OAuthErrorCode,
  description: string,
  extra: Pick<OAuthError, 'challenge' | 'refusal'> = {},
): OAuthError {
  return { error, description, ...extra };
}

export function isOAuthError(failure: OAuthFailure): failure is OAuthError {
  return 'error' in failure;
}

type OAuthStatus = 400 | 401 | 403 | 413 | 429 | 500 | 503;

/** Exhaustive, so a new code cannot be added without its status. */
const STATUS: Record<OAuthErrorCode, OAuthStatus> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_response_type: 400,
  invalid_scope: 400,
  // Only ever sent in a redirect (RFC 6749 section 4.1.2.1); 403 if it were rendered directly.
  access_denied: 403,
  server_error: 500,
  temporarily_unavailable: 503,
  invalid_token: 401,
  insufficient_scope: 403,
  unsupported_token_type: 400,
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
};

const CHALLENGE = {
  basic: 'Basic realm="oauth", charset="UTF-8"',
  bearer: 'Bearer realm="oauth-admin"',
} as const;

/** RFC 6749 section 5.1: responses holding tokens or errors must not be cached. */
export const NO_STORE_HEADERS = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

export interface OAuthErrorResponse {
  readonly status: OAuthStatus;
  readonly headers: Record<string, string>;
  readonly body: { readonly error: OAuthErrorCode; readonly error_description: string };
}

export const STORAGE_UNAVAILABLE = oauthError(
  'temporarily_unavailable',
  'the authorization server storage is unavailable',
);

/**
 * The one mapping from a failure to an HTTP answer: RFC 6749 section 5.2 body, status by code,
 * WWW-Authenticate per RFC 6749 5.2 / RFC 6750 section 3. A failed port is `temporarily_unavailable`
 * (503) and its message, which may name internals, is never rendered.
 */
export function renderOAuthError(failure: OAuthFailure): OAuthErrorResponse {
  const error = isOAuthError(failure) ? failure : STORAGE_UNAVAILABLE;
  const headers: Record<string, string> = { ...NO_STORE_HEADERS };
  if (error.challenge) headers['WWW-Authenticate'] = CHALLENGE[error.challenge];
  if (error.refusal?.status === 429) headers['Retry-After'] = String(error.refusal.retryAfterSec);
  return {
    status: error.refusal?.status ?? STATUS[error.error],
    headers,
    body: { error: error.error, error_description: error.description },
  };
}
