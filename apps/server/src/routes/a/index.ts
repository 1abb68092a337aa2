import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { apiKeyAuth } from '../../http/auth.js';
import { forBodies, limitBody } from '../../http/body-limit.js';
import { idempotency } from '../../http/idempotency.js';
import { rejectDuplicateJsonKeys } from '../../http/json-duplicates.js';
import { errorA, type InterfaceAApp, type InterfaceAEnv, interfaceAHook } from '../../interface-a/render.js';
import type { AppServices } from '../../services.js';
import { registerAccountRoutes } from './accounts.js';
import { registerActionRoutes } from './actions.js';
import { registerTransactionRoutes } from './transactions.js';
import { registerWebhookEndpointRoutes } from './webhooks.js';

/**
 * Interface A (`/v1/api/...`) as a sub-app with its one error pipeline: one validation hook here,
 * and the root app's error handler (createApp's, the same `interfaceAErrorHandler`), both rendering
 * `{message}` through `errorA`, behind the body limit, API key, content type and Idempotency-Key
 * checks. The sub-app sets no `onError` of its own: Hono wraps every handler of a mounted sub-app
 * that has one in a compose of its own, a closure and promises per handler per request, to give
 * the same answer the root's handler gives.
 */
export function createInterfaceA(services: AppServices): InterfaceAApp {
  const { deps } = services;
  const app: InterfaceAApp = new OpenAPIHono<InterfaceAEnv>({ defaultHook: interfaceAHook });

  app.use(
    '/v1/api/*',
    limitBody({
      maxSize: services.maxBodyBytes,
      // The rest of an oversized body is never read, so the connection cannot carry another request.
      onError: (c) =>
        errorA(c, 413, `request body exceeds ${services.maxBodyBytes} bytes`, { connection: 'close' }),
    }),
  );
  app.use(
    '/v1/api/*',
    apiKeyAuth(deps.store, () => deps.clock.now()),
  );
  // The checks of a request's body, as one step that a read passes at once.
  app.use(
    '/v1/api/*',
    forBodies(
      every(
        requireJsonBody,
        rejectDuplicateJsonKeys,
        idempotency(deps.store.idempotency, () => deps.clock.now()),
      ),
    ),
  );

  registerActionRoutes(app, services);
  registerTransactionRoutes(app, services);
  registerAccountRoutes(app, services);
  if (services.webhookEndpoints) registerWebhookEndpointRoutes(app, services, services.webhookEndpoints);

  // A donation to a currency the service does not support is bad input, not a missing page. A
  // wildcard after the currencies' own routes, not a `:currency` route: a parameter beside static
  // paths of the same method is what Hono's RegExpRouter cannot compile, and the fallback router
  // (the trie) costs every request of every route a slower match and more garbage.
  app.post('/v1/api/donate/*', (c, next) => {
    const currency = /^\/v1\/api\/donate\/([^/]+)$/.exec(c.req.path)?.[1];
    if (currency === undefined) return next();
    return errorA(
      c,
      400,
      `unknown currency "${currency.slice(0, 32)}" in the path; use one of ${deps.currencies
        .codes()
        .map((code) => code.toLowerCase())
        .join(', ')}`,
    );
  });

  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Interface A API key (printed at start-up and written to $DATA_DIR/dev-credentials.json)',
  });
  return app;
}

/** Every POST carries JSON, except the ones that take no body at all. */
const requireJsonBody: MiddlewareHandler<InterfaceAEnv> = async (c, next) => {
  if (c.req.method === 'POST') {
    const type = c.req.header('content-type') ?? '';
    const bodyless =
      /\/escrows\/[^/]+\/(release|refund)$/.test(c.req.path) || c.req.path === '/v1/api/accounts';
    if (!bodyless && !/^application\/json\b/i.test(type)) {
      return errorA(c, 415, 'Content-Type must be application/json');
    }
  }
  await next();
};
