import { z } from '@hono/zod-openapi';
import { issueSignInChallenge, NO_STORE_HEADERS } from '@token-actions/core';
import type { OAuthApp, OAuthRouteContext } from './app.js';
import { NO_STORE, oauthErrors, tags } from './openapi.js';
import { SignInChallenge, scope } from './openapi-schemas.js';

/**
 * POST /oauth/authorize/challenge: the Sign-In With Solana message the consent page has the
 * wallet sign, naming the very authorization request it is for.
 */
export function registerSignInChallenge(
  app: OAuthApp,
  { depsFor, settings, render }: OAuthRouteContext,
): void {
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/oauth/authorize/challenge',
    operationId: 'issueSignInChallenge',
    'x-use-case': 'issueSignInChallenge',
    tags,
    security: [],
    summary: 'A Sign-In With Solana message for the consent page to have the wallet sign',
    request: {
      body: {
        required: true,
        content: {
          'application/json': {
            schema: z.object({
              address: z.string().openapi({ example: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' }),
              client_id: z.string().openapi({ example: 'demo-client' }),
              scope,
            }),
          },
        },
      },
    },
    responses: {
      200: {
        description: 'Challenge',
        headers: NO_STORE,
        content: { 'application/json': { schema: SignInChallenge } },
      },
      ...oauthErrors([400, 413, 429, 500, 503]),
    },
  });
  app.post('/oauth/authorize/challenge', async (c) => {
    const body = await c.req.text().catch(() => undefined);
    const challenge = await issueSignInChallenge(depsFor(c), settings, body);
    return challenge.match(
      (value) => c.json(value, 200, NO_STORE_HEADERS),
      (failure) => render.json(c, failure),
    );
  });
}
