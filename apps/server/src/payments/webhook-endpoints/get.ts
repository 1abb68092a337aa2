import { createRoute } from '@hono/zod-openapi';
import { getWebhookEndpoint } from '@token-actions/core';
import { unwrap } from '../../http/respond.js';
import type { AppServices } from '../../services.js';
import { notFound, ok, readErrors, security } from '../openapi.js';
import type { PaymentsApp } from '../render.js';
import {
  endpointDeps,
  endpointIdParam,
  endpointJson,
  WebhookEndpointSchema,
  type WebhookEndpointServices,
} from './schemas.js';

const getWebhookEndpointRoute = createRoute({
  method: 'get',
  path: '/v1/api/webhooks/{id}',
  operationId: 'getWebhookEndpoint',
  'x-use-case': 'getWebhookEndpoint',
  tags: ['Webhook endpoint'],
  summary: 'One of the tenant’s endpoints (never its secret)',
  security,
  request: { params: endpointIdParam },
  responses: { ...ok('Endpoint', WebhookEndpointSchema), ...readErrors, ...notFound },
});

/** Another tenant's endpoint answers 404, as a missing one does. */
export function registerGetWebhookEndpoint(
  app: PaymentsApp,
  webhooks: WebhookEndpointServices,
  { deps }: AppServices,
): void {
  app.openapi(getWebhookEndpointRoute, async (c) => {
    const found = await unwrap(
      getWebhookEndpoint(endpointDeps(webhooks, deps.clock), {
        tenant: c.get('tenant').id,
        id: c.req.valid('param').id,
      }),
    );
    return c.json(endpointJson(found), 200);
  });
}
