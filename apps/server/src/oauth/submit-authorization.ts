import { z } from '@hono/zod-openapi';
import { checkConsentOrigin, completeAuthorization } from '@token-actions/core';
import type { OAuthApp, OAuthRouteContext } from './app.js';
import { readForm } from './form.js';
import { FORM, html, redirect, tags } from './openapi.js';
import { AuthorizeQuery, OAuthError } from './openapi-schemas.js';

/**
 * POST /oauth/authorize: the consent form's answer, approve (with the wallet's signature) or deny,
 * from this origin's own page only; the browser is sent back to the client either way.
 */
export function registerSubmitAuthorization(
  app: OAuthApp,
  { depsFor, settings, render }: OAuthRouteContext,
): void {
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/oauth/authorize',
    operationId: 'submitAuthorization',
    'x-use-case': 'completeAuthorization',
    tags,
    security: [],
    summary: "The consent form's answer: approve (with the wallet's signature) or deny",
    request: {
      body: {
        required: true,
        content: {
          [FORM]: {
            schema: AuthorizeQuery.extend({
              decision: z.enum(['approve', 'deny']),
              address: z.string().optional(),
              signature: z.string().optional().openapi({ description: 'base58 signature of the challenge' }),
              nonce: z.string().optional(),
              issued_at: z.string().optional(),
              expiration_time: z.string().optional(),
            }),
          },
        },
      },
    },
    responses: {
      303: redirect('To redirect_uri with code, state and iss; or with error=access_denied'),
      400: html('The form is invalid or the signature does not verify'),
      413: { description: 'Body too large', content: { 'application/json': { schema: OAuthError } } },
      500: html('Unexpected error'),
      503: html('The authorization server storage is unavailable'),
    },
  });
  app.post('/oauth/authorize', async (c) => {
    const origin = c.req.header('origin');
    const secFetchSite = c.req.header('sec-fetch-site');
    const sameOrigin = checkConsentOrigin(settings, {
      ...(origin !== undefined ? { origin } : {}),
      ...(secFetchSite !== undefined ? { secFetchSite } : {}),
    });
    if (sameOrigin.isErr()) return render.page(c, 403, sameOrigin.error.title, sameOrigin.error.detail);
    const completed = await completeAuthorization(depsFor(c), settings, await readForm(c));
    return completed.match(
      (location) => c.redirect(location, 303),
      (failure) => render.authorization(c, failure, 303),
    );
  });
}
