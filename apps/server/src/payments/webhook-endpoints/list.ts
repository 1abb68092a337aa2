import { createRoute } from '@hono/zod-openapi';
import { listWebhookEndpoints } from '@token-actions/core';
import { unwrap } from '../../http/respond.js';
import type { AppServices } from '../../services.js';
import { ok, readErrors, security } from '../openapi.js';
import type { PaymentsApp } from '../render.js';
import { endpointDeps, endpointJson, WebhookEndpointList, type WebhookEndpointServices } from './schemas.js';

const listWebhookEndpointsRoute = createRoute({
  method: 'get',
  path: '/v1/api/webhooks',
  operationId: 'listWebhookEndpoints',
  'x-use-case': 'listWebhookEndpoints',
  tags: ['Webhook endpoint'],
  summary: "The tenant's endpoints, oldest first (never their secret)",
  security,
  responses: { ...ok('Endpoints', WebhookEndpointList), ...readErrors },
});

export function registerListWebhookEndpoints(
  app: PaymentsApp,
  webhooks: WebhookEndpointServices,
  { deps }: AppServices,
): void {
  app.openapi(listWebhookEndpointsRoute, async (c) => {
    const list = await unwrap(
      listWebhookEndpoints(endpointDeps(webhooks, deps.clock), { tenant: c.get('tenant').id }),
    );
    return c.json({ webhooks: list.map(endpointJson) }, 200);
  });
}
