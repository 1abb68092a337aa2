import { createRoute } from '@hono/zod-openapi';
import { type AdminDeps, listWebhookEndpoints, parseTenantId } from '@token-actions/core';
import { unwrap } from '../../http/respond.js';
import {
  endpointDeps,
  endpointJson,
  WebhookEndpointList,
  type WebhookEndpointServices,
} from '../../payments/webhook-endpoints/schemas.js';
import { adminErrors, adminSecurity, json, tenantQuery } from '../openapi.js';
import type { AdminApp } from '../render.js';

const listWebhookEndpointsRoute = createRoute({
  method: 'get',
  path: '/v1/admin/webhooks',
  operationId: 'adminListWebhookEndpoints',
  'x-use-case': 'listWebhookEndpoints',
  tags: ['Admin'],
  summary: "A tenant's webhook endpoints, oldest first (never their secret)",
  security: adminSecurity,
  request: { query: tenantQuery },
  responses: { 200: { description: 'Endpoints', content: json(WebhookEndpointList) }, ...adminErrors },
});

export function registerAdminListWebhookEndpoints(
  app: AdminApp,
  deps: AdminDeps,
  webhooks: WebhookEndpointServices,
): void {
  app.openapi(listWebhookEndpointsRoute, async (c) => {
    const tenant = await unwrap(parseTenantId(c.req.valid('query').tenant));
    const list = await unwrap(listWebhookEndpoints(endpointDeps(webhooks, deps.clock), { tenant }));
    return c.json({ webhooks: list.map(endpointJson) }, 200);
  });
}
