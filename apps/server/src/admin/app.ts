import { OpenAPIHono } from '@hono/zod-openapi';
import type { AdminDeps } from '@token-actions/core';
import { limitBody } from '../http/body-limit.js';
import type { WebhookEndpointServices } from '../payments/webhook-endpoints/schemas.js';
import { registerCreateApiKey } from './api-keys/create.js';
import { registerGetApiKey } from './api-keys/get.js';
import { registerListApiKeys } from './api-keys/list.js';
import { registerRevokeApiKey } from './api-keys/revoke.js';
import { registerRotateApiKey } from './api-keys/rotate.js';
import { adminGuard } from './guard.js';
import {
  type AdminApp,
  type AdminLogger,
  adminErrorHandler,
  adminHook,
  errorAdmin,
  notFoundAdmin,
} from './render.js';
import { registerGetTenant } from './tenants/get.js';
import { registerListTenants } from './tenants/list.js';
import { registerUpdateTenant } from './tenants/update.js';
import { registerAdminCreateWebhookEndpoint } from './webhook-endpoints/create.js';
import { registerAdminDeleteWebhookEndpoint } from './webhook-endpoints/delete.js';
import { registerAdminListWebhookEndpoints } from './webhook-endpoints/list.js';

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
  const { logger, webhookEndpoints: webhooks } = services;
  registerCreateApiKey(app, deps, logger);
  registerListApiKeys(app, deps);
  registerGetApiKey(app, deps);
  registerRevokeApiKey(app, deps, logger);
  registerRotateApiKey(app, deps, logger);
  registerListTenants(app, deps);
  registerGetTenant(app, deps);
  registerUpdateTenant(app, deps, logger);
  if (webhooks) {
    registerAdminCreateWebhookEndpoint(app, deps, webhooks, logger);
    registerAdminListWebhookEndpoints(app, deps, webhooks);
    registerAdminDeleteWebhookEndpoint(app, deps, webhooks, logger);
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
