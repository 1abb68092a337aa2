import { NO_STORE_HEADERS, revokeToken } from '@token-actions/core';
import type { OAuthApp, OAuthRouteContext } from './app.js';
import { clientRequest } from './form.js';
import { clientSecurity, FORM, NO_STORE, oauthErrors, tags } from './openapi.js';
import { TokenForm } from './openapi-schemas.js';

/** POST /oauth/revoke: a client revokes one of its tokens, and the grant's others (RFC 7009). */
export function registerRevoke(app: OAuthApp, context: OAuthRouteContext): void {
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/oauth/revoke',
    operationId: 'revokeToken',
    'x-use-case': 'revokeToken',
    tags,
    summary: "Revoke a token of this client, and the grant's other tokens (RFC 7009)",
    security: clientSecurity,
    request: { body: { required: true, content: { [FORM]: { schema: TokenForm } } } },
    responses: {
      200: {
        description: 'Revoked, or it was not a valid token of this client (empty body)',
        headers: NO_STORE,
      },
      ...oauthErrors([400, 401, 413, 429, 500, 503]),
    },
  });
  app.post('/oauth/revoke', async (c) => {
    const revoked = await clientRequest(c, context).andThen(({ deps, client, form }) =>
      revokeToken(deps, client, form),
    );
    return revoked.match(
      () => c.body(null, 200, NO_STORE_HEADERS),
      (failure) => context.render.json(c, failure),
    );
  });
}
