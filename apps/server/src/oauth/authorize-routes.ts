import {
  checkConsentOrigin,
  completeAuthorization,
  consentFormParams,
  isFormContentType,
  issueSignInChallenge,
  NO_STORE_HEADERS,
  randomId,
  validateAuthorizationRequest,
} from '@token-actions/core';
import type { Context, Hono } from 'hono';
import { consentPage, demoCallbackPage, pageSecurityHeaders } from './consent-page.js';
import type { OAuthRouteContext } from './routes.js';

/** The body of a form post, or undefined when it was not form-encoded (so it is never read). */
export async function readForm(c: Context): Promise<URLSearchParams | undefined> {
  if (!isFormContentType(c.req.header('content-type'))) return undefined;
  return new URLSearchParams(await c.req.text());
}

/** RFC 6749 section 3.1: a parameter sent without a value is treated as omitted. */
function queryParam(query: URLSearchParams, name: string): string | undefined {
  return query.get(name) || undefined;
}

/** The authorization endpoint (RFC 6749 section 3.1): the consent page, its wallet sign-in, its answer. */
export function registerAuthorizeRoutes(app: Hono, { depsFor, settings, render }: OAuthRouteContext): void {
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
      }),
      200,
      // The form posts here, and the answer redirects to the client: both are allowed targets.
      pageSecurityHeaders(nonce, [new URL(request.redirectUri).origin]),
    );
  });

  app.post('/oauth/authorize/challenge', async (c) => {
    const body = await c.req.text().catch(() => undefined);
    const challenge = await issueSignInChallenge(depsFor(c), settings, body);
    return challenge.match(
      (value) => c.json(value, 200, NO_STORE_HEADERS),
      (failure) => render.json(c, failure),
    );
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

  app.get('/oauth/demo/callback', (c) => {
    const query = new URL(c.req.url).searchParams;
    const nonce = randomId();
    const code = queryParam(query, 'code');
    const state = queryParam(query, 'state');
    const error = queryParam(query, 'error');
    return c.html(
      demoCallbackPage({
        ...(code ? { code } : {}),
        ...(state ? { state } : {}),
        ...(error ? { error } : {}),
        tokenUrl: settings.endpoints.token,
        redirectUri: settings.endpoints.demoCallback,
        cspNonce: nonce,
      }),
      200,
      pageSecurityHeaders(nonce),
    );
  });
}
