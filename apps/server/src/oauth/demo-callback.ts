import { z } from '@hono/zod-openapi';
import { randomId } from '@token-actions/core';
import type { OAuthApp, OAuthRouteContext } from './app.js';
import { demoCallbackPage, pageSecurityHeaders } from './consent-page.js';
import { html, tags } from './openapi.js';

/** RFC 6749 section 3.1: a parameter sent without a value is treated as omitted. */
function queryParam(query: URLSearchParams, name: string): string | undefined {
  return query.get(name) || undefined;
}

/**
 * GET /oauth/demo/callback: the demo client's redirect page, which shows the code and the curl
 * that redeems it, so a newcomer can finish the flow by hand.
 */
export function registerDemoCallback(app: OAuthApp, { settings }: OAuthRouteContext): void {
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/oauth/demo/callback',
    operationId: 'showDemoCallback',
    'x-use-case': 'the demo client page',
    tags,
    security: [],
    summary: "The demo client's redirect page: shows the code and the curl that redeems it",
    request: {
      query: z.object({
        code: z
          .string()
          .optional()
          .openapi({ param: { name: 'code', in: 'query' } }),
        state: z
          .string()
          .optional()
          .openapi({ param: { name: 'state', in: 'query' } }),
        error: z
          .string()
          .optional()
          .openapi({ param: { name: 'error', in: 'query' } }),
      }),
    },
    responses: { 200: html('The code, or the error, with what to do next') },
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
