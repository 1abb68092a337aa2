import { consentFormParams, randomId, validateAuthorizationRequest } from '@token-actions/core';
import type { OAuthApp, OAuthRouteContext } from './app.js';
import { consentPage, pageSecurityHeaders } from './consent-page.js';
import { html, redirect, tags } from './openapi.js';
import { AuthorizeQuery } from './openapi-schemas.js';

/**
 * GET /oauth/authorize, the authorization endpoint (RFC 6749 section 3.1): the consent page, where
 * the user signs in with their wallet and approves or denies.
 */
export function registerAuthorize(
  app: OAuthApp,
  { depsFor, settings, render, devWallet }: OAuthRouteContext,
): void {
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/oauth/authorize',
    operationId: 'authorize',
    'x-use-case': 'validateAuthorizationRequest',
    tags,
    security: [],
    summary: 'Authorization endpoint: the consent page, where the user signs in with their wallet',
    description: 'Authorization code flow with PKCE (S256 only). Open it in a browser, not with fetch.',
    request: { query: AuthorizeQuery },
    responses: {
      200: html('The consent page'),
      302: redirect(
        'Back to redirect_uri with error (and state, iss) once the client and redirect are known',
      ),
      400: html('Unknown client or redirect URI: shown to the user, never redirected'),
      500: html('Unexpected error'),
      503: html('The authorization server storage is unavailable'),
    },
  });
  app.get('/oauth/authorize', async (c) => {
    const checked = await validateAuthorizationRequest(depsFor(c), settings, new URL(c.req.url).searchParams);
    if (checked.isErr()) return render.authorization(c, checked.error, 302);
    const request = checked.value;
    const nonce = randomId();
    return c.html(
      consentPage({
        clientName: request.client.name,
        clientId: request.client.id,
        redirectOrigin: new URL(request.redirectUri).origin,
        scope: request.scope,
        params: consentFormParams(request),
        formAction: settings.endpoints.authorization,
        challengeUrl: settings.endpoints.challenge,
        cspNonce: nonce,
        devWallet,
      }),
      200,
      // The form posts here, and the answer redirects to the client: both are allowed targets.
      pageSecurityHeaders(nonce, [new URL(request.redirectUri).origin]),
    );
  });
}
