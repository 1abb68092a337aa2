import {
  type AuthorizationFailure,
  isAuthorizationPageError,
  isAuthorizationRedirect,
  isOAuthError,
  type OAuthFailure,
  type OAuthLogger,
  oauthError,
  randomId,
  renderOAuthError,
} from '@token-actions/core';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { requestLogger } from '../http/request-context.js';
import { errorPage, pageSecurityHeaders } from './consent-page.js';

/**
 * The one place an OAuth failure becomes a response: JSON per RFC 6749 section 5.2 for the
 * endpoints clients call, an HTML page or a redirect for the authorization endpoint the user's
 * browser visits. A failed port is logged here (never its secrets) and answered 503.
 */
export interface OAuthRenderer {
  json(c: Context, failure: OAuthFailure): Response;
  authorization(c: Context, failure: AuthorizationFailure, redirectStatus: 302 | 303): Response;
  page(c: Context, status: ContentfulStatusCode, title: string, detail: string): Response;
  /** The sub-app's error handler: anything thrown that is not a Result. */
  unexpected(c: Context, error: Error): Response;
}

const AUTHORIZATION_PATH = '/oauth/authorize';

export function createOAuthRenderer(log: OAuthLogger | undefined): OAuthRenderer {
  const logFailure = (c: Context, fields: Record<string, unknown>) => {
    if (!log) return;
    const scoped = requestLogger(c, log);
    (scoped.error ?? scoped.warn).call(scoped, { ...fields, path: c.req.path }, 'oauth request failed');
  };

  const page = (c: Context, status: ContentfulStatusCode, title: string, detail: string) => {
    const nonce = randomId();
    return c.html(errorPage(title, detail, nonce), status, pageSecurityHeaders(nonce));
  };

  const json = (c: Context, failure: OAuthFailure) => {
    if (!isOAuthError(failure)) logFailure(c, { errorCode: failure.code });
    const response = renderOAuthError(failure);
    return c.json(response.body, response.status, response.headers);
  };

  return {
    json,
    page,
    authorization(c, failure, redirectStatus) {
      if (isAuthorizationRedirect(failure)) return c.redirect(failure.location, redirectStatus);
      if (isAuthorizationPageError(failure)) return page(c, 400, failure.title, failure.detail);
      logFailure(c, { errorCode: failure.code });
      return page(c, 503, 'Something went wrong', 'Please try again in a moment.');
    },
    unexpected(c, error) {
      logFailure(c, { error: error.name });
      if (c.req.path === AUTHORIZATION_PATH) {
        return page(c, 500, 'Something went wrong', 'Please try again in a moment.');
      }
      return json(c, oauthError('server_error', 'unexpected error'));
    },
  };
}
