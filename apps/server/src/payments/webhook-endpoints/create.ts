import { createRoute } from '@hono/zod-openapi';
import { CreateWebhookEndpointRequest, createWebhookEndpoint } from '@token-actions/core';
import { requestLogger } from '../../http/request-context.js';
import { unwrap } from '../../http/respond.js';
import type { AppServices } from '../../services.js';
import { IdempotencyHeaders, jsonBody, ok, security, writeErrors } from '../openapi.js';
import type { PaymentsApp } from '../render.js';
import {
  CreatedWebhookEndpointSchema,
  endpointDeps,
  endpointJson,
  type WebhookEndpointServices,
} from './schemas.js';

const createWebhookEndpointRoute = createRoute({
  method: 'post',
  path: '/v1/api/webhooks',
  operationId: 'createWebhookEndpoint',
  'x-use-case': 'createWebhookEndpoint',
  tags: ['Webhook endpoint'],
  summary: "Register an endpoint for the tenant's transaction status changes (the secret is shown once)",
  description:
    'The URL is refused (400) when its host resolves to a loopback, private, link-local, unique-local or cloud metadata address, unless the service runs with WEBHOOK_ALLOW_PRIVATE; it is checked again before every delivery.',
  security,
  request: { headers: IdempotencyHeaders, body: jsonBody(CreateWebhookEndpointRequest) },
  responses: { ...ok('Registered', CreatedWebhookEndpointSchema), ...writeErrors },
});

/** The caller's tenant registers an endpoint its transactions' status changes are sent to. */
export function registerCreateWebhookEndpoint(
  app: PaymentsApp,
  webhooks: WebhookEndpointServices,
  { deps, logger }: AppServices,
): void {
  app.openapi(createWebhookEndpointRoute, async (c) => {
    const endpoint = await unwrap(
      createWebhookEndpoint(endpointDeps(webhooks, deps.clock), {
        ...c.req.valid('json'),
        tenant: c.get('tenant').id,
      }),
    );
    requestLogger(c, logger).info(
      { endpointId: endpoint.id, tenant: endpoint.tenant },
      'webhook endpoint registered',
    );
    return c.json({ ...endpointJson(endpoint), secret: webhooks.secretFor(endpoint.id) }, 200);
  });
}
