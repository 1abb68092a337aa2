import { grantTokens, NO_STORE_HEADERS } from '@token-actions/core';
import type { OAuthApp, OAuthRouteContext } from './app.js';
import { clientRequest } from './form.js';
import { clientSecurity, FORM, NO_STORE, oauthErrors, tags } from './openapi.js';
import { TokenRequest, TokenResponse } from './openapi-schemas.js';

/**
 * POST /oauth/token, the token endpoint (RFC 6749 section 3.2): a code with its PKCE verifier, or
 * a refresh token, for a new access and refresh token.
 */
export function registerToken(app: OAuthApp, context: OAuthRouteContext): void {
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/oauth/token',
    operationId: 'issueToken',
    'x-use-case': 'grantTokens',
    tags,
    summary: 'Token endpoint: exchange a code (with its PKCE verifier) or rotate a refresh token',
    security: clientSecurity,
    request: { body: { required: true, content: { [FORM]: { schema: TokenRequest } } } },
    responses: {
      200: {
        description: 'Tokens',
        headers: NO_STORE,
        content: { 'application/json': { schema: TokenResponse } },
      },
      ...oauthErrors([400, 401, 413, 429, 500, 503]),
    },
  });
  app.post('/oauth/token', async (c) => {
    const issued = await clientRequest(c, context).andThen(({ deps, client, form }) =>
      grantTokens(deps, context.settings, client, form),
    );
    return issued.match(
      (tokens) => c.json(tokens, 200, NO_STORE_HEADERS),
      (failure) => context.render.json(c, failure),
    );
  });
}
