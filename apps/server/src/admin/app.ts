import { OpenAPIHono } from '@hono/zod-openapi';
import type { AdminDeps } from '@token-actions/core';
import { limitBody } from '../http/body-limit.js';
import type { WebhookEndpointServices } from '../routes/webhook-endpoints.js';
import { registerApiKeyRoutes } from './api-keys.js';
import { adminGuard } from './guard.js';
import {
  type AdminApp,
  type AdminLogger,
  adminErrorHandler,
  adminHook,
  errorAdmin,
  notFoundAdmin,
} from './render.js';
import { registerTenantRoutes } from './tenants.js';
import { registerWebhookEndpointAdminRoutes } from './webhooks.js';

export interface AdminServices extends AdminDeps {
  /** The operator token; without one every admin route answers 404. */
  readonly adminToken?: string;
  readonly logger: AdminLogger;
  /** Tenants' webhook endpoints; their admin routes are mounted when present. */
  readonly webhookEndpoints?: WebhookEndpointServices;
}

/**
 * The operator's API (`/v1/admin/...`) as a sub-app with its own error pipeline (`{code, message}`),
 * behind the operator token: API keys and tenants.
 */
export function createAdminApp(services: AdminServices): AdminApp {
  const app: AdminApp = new OpenAPIHono({ defaultHook: adminHook });
  app.onError(adminErrorHandler(services.logger));
  app.use(
    '/v1/admin/*',
    limitBody({
      maxSize: 16 * 1024,
      onError: (c) =>
        errorAdmin(c, 413, 'INVALID_INPUT', 'request body exceeds 16384 bytes', { connection: 'close' }),
    }),
  );
  app.use('/v1/admin/*', adminGuard(services.adminToken));
  app.use('/v1/admin/*', async (c, next) => {
    const hasBody = c.req.header('content-length') !== undefined && c.req.header('content-length') !== '0';
    if (
      (c.req.method === 'POST' || c.req.method === 'PATCH') &&
      (hasBody || c.req.header('transfer-encoding'))
    ) {
      if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
        return errorAdmin(c, 415, 'INVALID_INPUT', 'Content-Type must be application/json');
      }
    }
    await next();
  });

  const deps: AdminDeps = { store: services.store, clock: services.clock };
  registerApiKeyRoutes(app, deps, services.logger);
  registerTenantRoutes(app, deps, services.logger);
  if (services.webhookEndpoints) {
    registerWebhookEndpointAdminRoutes(app, deps, services.webhookEndpoints, services.logger);
  }
  app.all('/v1/admin/*', notFoundAdmin);

  app.openAPIRegistry.registerComponent('securitySchemes', 'adminToken', {
    type: 'http',
    scheme: 'bearer',
    description:
      'The operator token: ADMIN_TOKEN, or on a localnet adminToken in $DATA_DIR/dev-credentials.json',
  });
  return app;
}
