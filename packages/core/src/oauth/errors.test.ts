import { describe, expect, it } from 'vitest';
import { domainError } from '../errors.js';
import { OAUTH_ERROR_CODES, oauthError, renderOAuthError } from './errors.js';

describe('renderOAuthError', () => {
  it('RFC 6749 section 5.2: a JSON body {error, error_description}, never cached', () => {
    const rendered = renderOAuthError(oauthError('invalid_grant', 'the authorization code is invalid'));
    expect(rendered).toEqual({
      status: 400,
      headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
      body: { error: 'invalid_grant', error_description: 'the authorization code is invalid' },
    });
  });

  it('gives every code of the closed union a status', () => {
    const statuses = Object.fromEntries(
      OAUTH_ERROR_CODES.map((code) => [code, renderOAuthError(oauthError(code, 'x')).status]),
    );
    expect(statuses).toMatchObject({
      invalid_request: 400,
      invalid_client: 401,
      invalid_grant: 400,
      unauthorized_client: 400,
      unsupported_grant_type: 400,
      invalid_scope: 400,
      server_error: 500,
      temporarily_unavailable: 503,
      invalid_token: 401,
      insufficient_scope: 403,
    });
  });

  it('RFC 6749 section 5.2: invalid_client after Basic authentication carries a Basic challenge', () => {
    const rendered = renderOAuthError(oauthError('invalid_client', 'failed', { challenge: 'basic' }));
    expect(rendered.status).toBe(401);
    expect(rendered.headers['WWW-Authenticate']).toBe('Basic realm="oauth", charset="UTF-8"');
    expect(renderOAuthError(oauthError('invalid_client', 'failed')).headers).not.toHaveProperty(
      'WWW-Authenticate',
    );
  });

  it('RFC 6750 section 3: a missing or bad bearer token answers 401 with a Bearer challenge', () => {
    const rendered = renderOAuthError(oauthError('invalid_token', 'required', { challenge: 'bearer' }));
    expect(rendered.status).toBe(401);
    expect(rendered.headers['WWW-Authenticate']).toMatch(/^Bearer realm="/);
  });

  it('keeps the OAuth body on refusals: 413 for a large body, 429 with Retry-After', () => {
    expect(
      renderOAuthError(oauthError('invalid_request', 'too large', { refusal: { status: 413 } })).status,
    ).toBe(413);
    const limited = renderOAuthError(
      oauthError('temporarily_unavailable', 'slow down', { refusal: { status: 429, retryAfterSec: 42 } }),
    );
    expect(limited.status).toBe(429);
    expect(limited.headers['Retry-After']).toBe('42');
  });

  it('answers a failed port 503 temporarily_unavailable without its message', () => {
    const rendered = renderOAuthError(domainError('STORE_UNAVAILABLE', 'pg: connection to 10.0.0.5 refused'));
    expect(rendered.status).toBe(503);
    expect(rendered.body).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'the authorization server storage is unavailable',
    });
  });
});
