import { createRoute } from '@hono/zod-openapi';
import {
  AdminCreateWebhookEndpointRequest,
  type AdminDeps,
  createWebhookEndpointForTenant,
} from '@token-actions/core';
import { requestLogger } from '../../http/request-context.js';
import { unwrap } from '../../http/respond.js';
import {
  CreatedWebhookEndpointSchema,
  endpointDeps,
  endpointJson,
  type WebhookEndpointServices,
} from '../../payments/webhook-endpoints/schemas.js';
import { adminErrors, adminSecurity, json } from '../openapi.js';
import type { AdminApp, AdminLogger } from '../render.js';

const createWebhookEndpointRoute = createRoute({
  method: 'post',
  path: '/v1/admin/webhooks',
  operationId: 'adminCreateWebhookEndpoint',
  'x-use-case': 'createWebhookEndpointForTenant',
  tags: ['Admin'],
  summary: "Register a webhook endpoint for a tenant's transaction status changes (the secret is shown once)",
  security: adminSecurity,
  request: { body: { required: true, content: json(AdminCreateWebhookEndpointRequest) } },
  responses: {
    201: { description: 'Registered', content: json(CreatedWebhookEndpointSchema) },
    ...adminErrors,
  },
});

/** The operator's view of tenants' webhook endpoints: always named with their tenant. */
export function registerAdminCreateWebhookEndpoint(
  app: AdminApp,
  deps: AdminDeps,
  webhooks: WebhookEndpointServices,
  logger: AdminLogger,
): void {
  app.openapi(createWebhookEndpointRoute, async (c) => {
    const endpoint = await unwrap(
      createWebhookEndpointForTenant(
        { ...endpointDeps(webhooks, deps.clock), store: deps.store },
        c.req.valid('json'),
      ),
    );
    requestLogger(c, logger).info(
      { endpointId: endpoint.id, tenant: endpoint.tenant },
      'webhook endpoint registered',
    );
    return c.json({ ...endpointJson(endpoint), secret: webhooks.secretFor(endpoint.id) }, 201);
  });
}
