import { createRoute, z } from '@hono/zod-openapi';
import {
  AdminCreateWebhookEndpointRequest,
  type AdminDeps,
  createWebhookEndpointForTenant,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  parseTenantId,
} from '@token-actions/core';
import { requestLogger } from '../http/request-context.js';
import { unwrap } from '../http/respond.js';
import {
  CreatedWebhookEndpointSchema,
  DeletedWebhookEndpoint,
  endpointIdParam,
  endpointJson,
  WebhookEndpointList,
  type WebhookEndpointServices,
} from '../routes/webhook-endpoints.js';
import { adminErrors, adminSecurity } from './api-keys.js';
import type { AdminApp, AdminLogger } from './render.js';

const json = <T>(schema: T) => ({ 'application/json': { schema } });
const tenantQuery = z.object({
  tenant: z.string().openapi({
    param: { name: 'tenant', in: 'query' },
    description: 'The tenant whose endpoints these are',
    example: 'acme',
  }),
});

/** The operator's view of tenants' webhook endpoints: always named with their tenant. */
export function registerWebhookEndpointAdminRoutes(
  app: AdminApp,
  deps: AdminDeps,
  webhooks: WebhookEndpointServices,
  logger: AdminLogger,
) {
  const endpointDeps = {
    endpoints: webhooks.store,
    outbound: webhooks.outbound,
    webhooks: webhooks.deliveries,
    clock: deps.clock,
  };

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/admin/webhooks',
      operationId: 'adminCreateWebhookEndpoint',
      tags: ['Admin'],
      summary:
        "Register a webhook endpoint for a tenant's transaction status changes (the secret is shown once)",
      security: adminSecurity,
      request: { body: { required: true, content: json(AdminCreateWebhookEndpointRequest) } },
      responses: {
        201: { description: 'Registered', content: json(CreatedWebhookEndpointSchema) },
        ...adminErrors,
      },
    }),
    async (c) => {
      const endpoint = await unwrap(
        createWebhookEndpointForTenant({ ...endpointDeps, store: deps.store }, c.req.valid('json')),
      );
      requestLogger(c, logger).info(
        { endpointId: endpoint.id, tenant: endpoint.tenant },
        'webhook endpoint registered',
      );
      return c.json({ ...endpointJson(endpoint), secret: webhooks.secretFor(endpoint.id) }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/admin/webhooks',
      operationId: 'adminListWebhookEndpoints',
      tags: ['Admin'],
      summary: "A tenant's webhook endpoints, oldest first (never their secret)",
      security: adminSecurity,
      request: { query: tenantQuery },
      responses: { 200: { description: 'Endpoints', content: json(WebhookEndpointList) }, ...adminErrors },
    }),
    async (c) => {
      const tenant = await unwrap(parseTenantId(c.req.valid('query').tenant));
      const list = await unwrap(listWebhookEndpoints(endpointDeps, { tenant }));
      return c.json({ webhooks: list.map(endpointJson) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/admin/webhooks/{id}',
      operationId: 'adminDeleteWebhookEndpoint',
      tags: ['Admin'],
      summary: "Delete a tenant's webhook endpoint (404 when it is not that tenant's)",
      security: adminSecurity,
      request: { params: endpointIdParam, query: tenantQuery },
      responses: { 200: { description: 'Deleted', content: json(DeletedWebhookEndpoint) }, ...adminErrors },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const tenant = await unwrap(parseTenantId(c.req.valid('query').tenant));
      const out = await unwrap(deleteWebhookEndpoint(endpointDeps, { tenant, id }));
      requestLogger(c, logger).info({ endpointId: id, tenant, ...out }, 'webhook endpoint deleted');
      return c.json({ id, deleted: true as const }, 200);
    },
  );
}
