import { introspectToken, NO_STORE_HEADERS } from '@token-actions/core';
import type { OAuthApp, OAuthRouteContext } from './app.js';
import { clientRequest } from './form.js';
import { clientSecurity, FORM, NO_STORE, oauthErrors, tags } from './openapi.js';
import { Introspection, TokenForm } from './openapi-schemas.js';

/** POST /oauth/introspect: whether a token of this client is active, and for whom (RFC 7662). */
export function registerIntrospect(app: OAuthApp, context: OAuthRouteContext): void {
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/oauth/introspect',
    operationId: 'introspectToken',
    'x-use-case': 'introspectToken',
    tags,
    summary: 'Is this token of this client active, and for whom (RFC 7662)',
    security: clientSecurity,
    request: { body: { required: true, content: { [FORM]: { schema: TokenForm } } } },
    responses: {
      200: {
        description: 'Token state',
        headers: NO_STORE,
        content: { 'application/json': { schema: Introspection } },
      },
      ...oauthErrors([400, 401, 413, 429, 500, 503]),
    },
  });
  app.post('/oauth/introspect', async (c) => {
    const state = await clientRequest(c, context).andThen(({ deps, client, form }) =>
      introspectToken(deps, context.settings, client, form),
    );
    return state.match(
      (value) => c.json(value, 200, NO_STORE_HEADERS),
      (failure) => context.render.json(c, failure),
    );
  });
}
