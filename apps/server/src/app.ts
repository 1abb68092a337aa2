import { OpenAPIHono } from '@hono/zod-openapi';
import { isDomainError } from '@token-actions/core';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { apiKeyAuth } from './http/auth.js';
import { DomainHttpError, publicMessage, statusOf } from './http/errors.js';
import { idempotency } from './http/idempotency.js';
import { interfaceAHook } from './http/validation.js';
import { registerAccountRoutes } from './routes/a/accounts.js';
import { registerActionRoutes } from './routes/a/actions.js';
import { registerTransactionRoutes } from './routes/a/transactions.js';
import { mountInterfaceB } from './routes/b/index.js';
import { docsPage } from './routes/docs.js';
import type { AppServices } from './services.js';

export const API_VERSION = '1.1.0';

/** The HTTP app of the service. Runtime-neutral: Node (main.ts) and edge (edge.ts) entries wrap it. */
export function createApp(services: AppServices) {
  const { deps, logger } = services;
  const app = new OpenAPIHono({ defaultHook: interfaceAHook });

  app.onError((error, c) => {
    if (error instanceof DomainHttpError || isDomainError(error)) {
      const domain = error instanceof DomainHttpError ? error.error : error;
      const status = statusOf(domain.code);
      if (status >= 500)
        logger.error(
          { code: domain.code, context: domain.context, cause: String(domain.cause ?? '') },
          'operation failed',
        );
      return c.json({ message: publicMessage(domain) }, status);
    }
    if (error instanceof HTTPException) {
      const message =
        error.status === 400 ? `invalid request: ${error.message || 'malformed body'}` : error.message;
      return c.json({ message }, error.status);
    }
    logger.error({ err: error }, 'unhandled error');
    return c.json({ message: 'internal server error' }, 500);
  });
  app.notFound((c) => c.json({ message: `no route for ${c.req.method} ${c.req.path}` }, 404));

  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  const limitBody = bodyLimit({
    maxSize: services.maxBodyBytes,
    // The rest of an oversized body is never read, so the connection cannot carry another request.
    onError: (c) =>
      c.json({ message: `request body exceeds ${services.maxBodyBytes} bytes` }, 413, {
        connection: 'close',
      }),
  });
  // Only requests that can carry a body are limited: the limiter reads the raw request, which on
  // Node makes the adapter build a full Request for every GET too (a quarter of the read path's CPU).
  app.use('/v1/api/*', (c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next),
  );
  app.use('/v1/api/*', apiKeyAuth(deps.store.apiKeys));
  app.use('/v1/api/*', async (c, next) => {
    if (c.req.method === 'POST') {
      const type = c.req.header('content-type') ?? '';
      const bodyless =
        /\/escrows\/[^/]+\/(release|refund)$/.test(c.req.path) || c.req.path === '/v1/api/accounts';
      if (!bodyless && !/^application\/json\b/i.test(type)) {
        return c.json({ message: 'Content-Type must be application/json' }, 415);
      }
    }
    await next();
  });
  app.use(
    '/v1/api/*',
    idempotency(deps.store.idempotency, () => deps.clock.now()),
  );

  if (services.interfaceB) mountInterfaceB(app, services.interfaceB);

  registerActionRoutes(app, services);
  registerTransactionRoutes(app, services);
  registerAccountRoutes(app, services);

  // A donation to a currency the service does not support is bad input, not a missing page.
  app.post('/v1/api/donate/:currency', (c) =>
    c.json(
      {
        message: `unknown currency "${c.req.param('currency').slice(0, 32)}" in the path; use one of ${deps.currencies
          .codes()
          .map((code) => code.toLowerCase())
          .join(', ')}`,
      },
      400,
    ),
  );

  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Interface A API key (printed at start-up and written to $DATA_DIR/dev-credentials.json)',
  });
  app.doc31('/v1/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Token Actions',
      version: API_VERSION,
      description:
        'Interface A: NFT minting, donations, charity donations, merchant payments, and transaction preview, signing and tracking.',
    },
    servers: [{ url: '/' }],
  });
  app.get('/v1/docs', (c) => c.html(docsPage('/v1/openapi.json')));

  services.mount?.(app);
  return app;
}

export type { AppServices } from './services.js';
