import {
  authenticateClient,
  authorizationServerMetadata,
  grantTokens,
  introspectToken,
  NO_STORE_HEADERS,
  type OAuthClientRecord,
  type OAuthDeps,
  type OAuthFailure,
  registerClientMetadata,
  revokeToken,
  tokenEndpointForm,
} from '@token-actions/core';
import type { Context, Hono } from 'hono';
import { ResultAsync } from 'neverthrow';
import { readForm } from './authorize-routes.js';
import type { OAuthRouteContext } from './routes.js';

/** Not an OAuth error: without an admin token the registration endpoint does not exist. */
const REGISTRATION_DISABLED = { error: 'not_found', error_description: 'registration is disabled' } as const;

interface ClientRequest {
  /** The protocol's ports for this request, made once for it. */
  readonly deps: OAuthDeps;
  readonly client: OAuthClientRecord;
  readonly form: URLSearchParams;
}

/** The token, revocation and introspection endpoints (RFC 6749 3.2, RFC 7009, RFC 7662), and registration. */
export function registerTokenRoutes(app: Hono, context: OAuthRouteContext): void {
  const { depsFor, settings, render, adminTokenHash } = context;

  /** The form-encoded body and the client it authenticates (RFC 6749 section 2.3 and 3.2). */
  function clientRequest(c: Context): ResultAsync<ClientRequest, OAuthFailure> {
    const authorization = c.req.header('authorization');
    const deps = depsFor(c);
    // A body over the limit rejects here, unlike a Result: the body limit answers it with 413.
    return ResultAsync.fromSafePromise(readForm(c))
      .andThen(tokenEndpointForm)
      .andThen((form) =>
        authenticateClient(deps, { ...(authorization ? { authorization } : {}), form }).map((client) => ({
          deps,
          client,
          form,
        })),
      );
  }

  app.get('/.well-known/oauth-authorization-server', (c) =>
    c.json(authorizationServerMetadata(settings, { registration: adminTokenHash !== undefined }), 200, {
      'Cache-Control': 'public, max-age=300',
    }),
  );

  app.post('/oauth/token', async (c) => {
    const issued = await clientRequest(c).andThen(({ deps, client, form }) =>
      grantTokens(deps, settings, client, form),
    );
    return issued.match(
      (tokens) => c.json(tokens, 200, NO_STORE_HEADERS),
      (failure) => render.json(c, failure),
    );
  });

  app.post('/oauth/revoke', async (c) => {
    const revoked = await clientRequest(c).andThen(({ deps, client, form }) =>
      revokeToken(deps, client, form),
    );
    return revoked.match(
      () => c.body(null, 200, NO_STORE_HEADERS),
      (failure) => render.json(c, failure),
    );
  });

  app.post('/oauth/introspect', async (c) => {
    const state = await clientRequest(c).andThen(({ deps, client, form }) =>
      introspectToken(deps, settings, client, form),
    );
    return state.match(
      (value) => c.json(value, 200, NO_STORE_HEADERS),
      (failure) => render.json(c, failure),
    );
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
