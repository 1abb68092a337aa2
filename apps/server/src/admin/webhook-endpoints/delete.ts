import { createRoute } from '@hono/zod-openapi';
import { type AdminDeps, deleteWebhookEndpoint, parseTenantId } from '@token-actions/core';
import { requestLogger } from '../../http/request-context.js';
import { unwrap } from '../../http/respond.js';
import {
  DeletedWebhookEndpoint,
  endpointDeps,
  endpointIdParam,
  type WebhookEndpointServices,
} from '../../payments/webhook-endpoints/schemas.js';
import { adminErrors, adminSecurity, json, tenantQuery } from '../openapi.js';
import type { AdminApp, AdminLogger } from '../render.js';

const deleteWebhookEndpointRoute = createRoute({
  method: 'delete',
  path: '/v1/admin/webhooks/{id}',
  operationId: 'adminDeleteWebhookEndpoint',
  'x-use-case': 'deleteWebhookEndpoint',
  tags: ['Admin'],
  summary: "Delete a tenant's webhook endpoint (404 when it is not that tenant's)",
  security: adminSecurity,
  request: { params: endpointIdParam, query: tenantQuery },
  responses: { 200: { description: 'Deleted', content: json(DeletedWebhookEndpoint) }, ...adminErrors },
});

export function registerAdminDeleteWebhookEndpoint(
  app: AdminApp,
  deps: AdminDeps,
  webhooks: WebhookEndpointServices,
  logger: AdminLogger,
): void {
  app.openapi(deleteWebhookEndpointRoute, async (c) => {
    const { id } = c.req.valid('param');
    const tenant = await unwrap(parseTenantId(c.req.valid('query').tenant));
    const out = await unwrap(deleteWebhookEndpoint(endpointDeps(webhooks, deps.clock), { tenant, id }));
    requestLogger(c, logger).info({ endpointId: id, tenant, ...out }, 'webhook endpoint deleted');
    return c.json({ id, deleted: true as const }, 200);
  });
}
