import { z } from '@hono/zod-openapi';
import { NO_STORE_HEADERS, registerClientMetadata } from '@token-actions/core';
import type { OAuthApp, OAuthRouteContext } from './app.js';
import { NO_STORE, oauthErrors, tags } from './openapi.js';
import { ClientMetadata, RegisteredClient } from './openapi-schemas.js';

/** Not an OAuth error: without an admin token the registration endpoint does not exist. */
const REGISTRATION_DISABLED = { error: 'not_found', error_description: 'registration is disabled' } as const;

/** POST /oauth/clients: the operator registers a client (RFC 7591); off without an admin token. */
export function registerClientRegistration(
  app: OAuthApp,
  { depsFor, render, adminTokenHash }: OAuthRouteContext,
): void {
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/oauth/clients',
    operationId: 'registerClient',
    'x-use-case': 'registerClientMetadata',
    tags,
    summary: 'Register a client (RFC 7591); enabled by ADMIN_TOKEN',
    description:
      'The operator registers an OAuth client for interface B with `Authorization: Bearer <ADMIN_TOKEN>` (on the localnet, `adminToken` in `$DATA_DIR/dev-credentials.json`). The answer holds the `client_secret` once; only its hash is kept. `node apps/server/dist/cli.js register-client` sends this request for you.',
    security: [{ oauthAdmin: [] }],
    request: { body: { required: true, content: { 'application/json': { schema: ClientMetadata } } } },
    responses: {
      201: {
        description: 'Registered',
        headers: NO_STORE,
        content: { 'application/json': { schema: RegisteredClient } },
      },
      ...oauthErrors([400, 401, 413, 500, 503]),
      404: {
        description: 'Registration is disabled (no ADMIN_TOKEN)',
        content: {
          'application/json': {
            schema: z.object({ error: z.literal('not_found'), error_description: z.string() }),
          },
        },
      },
    },
  });
  app.post('/oauth/clients', async (c) => {
    if (!adminTokenHash) return c.json(REGISTRATION_DISABLED, 404);
    const authorization = c.req.header('authorization');
    const body = await c.req.text().catch(() => undefined);
    const registered = await registerClientMetadata(depsFor(c), adminTokenHash, {
      ...(authorization ? { authorization } : {}),
      body,
    });
    return registered.match(
      (value) => c.json(value, 201, NO_STORE_HEADERS),
      (failure) => render.json(c, failure),
    );
  });
}
