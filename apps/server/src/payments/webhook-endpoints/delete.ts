import { createRoute } from '@hono/zod-openapi';
import { deleteWebhookEndpoint } from '@token-actions/core';
import { requestLogger } from '../../http/request-context.js';
import { unwrap } from '../../http/respond.js';
import type { AppServices } from '../../services.js';
import { notFound, ok, readErrors, security } from '../openapi.js';
import type { PaymentsApp } from '../render.js';
import {
  DeletedWebhookEndpoint,
  endpointDeps,
  endpointIdParam,
  type WebhookEndpointServices,
} from './schemas.js';

const deleteWebhookEndpointRoute = createRoute({
  method: 'delete',
  path: '/v1/api/webhooks/{id}',
  operationId: 'deleteWebhookEndpoint',
  'x-use-case': 'deleteWebhookEndpoint',
  tags: ['Webhook endpoint'],
  summary:
    'Delete one of the tenant’s endpoints: no new event is queued for it, and its queued deliveries end',
  security,
  request: { params: endpointIdParam },
  responses: { ...ok('Deleted', DeletedWebhookEndpoint), ...readErrors, ...notFound },
});

export function registerDeleteWebhookEndpoint(
  app: PaymentsApp,
  webhooks: WebhookEndpointServices,
  { deps, logger }: AppServices,
): void {
  app.openapi(deleteWebhookEndpointRoute, async (c) => {
    const { id } = c.req.valid('param');
    const tenant = c.get('tenant').id;
    const out = await unwrap(deleteWebhookEndpoint(endpointDeps(webhooks, deps.clock), { tenant, id }));
    requestLogger(c, logger).info({ endpointId: id, tenant, ...out }, 'webhook endpoint deleted');
    return c.json({ id, deleted: true as const }, 200);
  });
}
