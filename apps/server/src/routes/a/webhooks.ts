import { createRoute } from '@hono/zod-openapi';
import {
  CreateWebhookEndpointRequest,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
} from '@token-actions/core';
import { requestLogger } from '../../http/request-context.js';
import { unwrap } from '../../http/respond.js';
import type { InterfaceAApp } from '../../interface-a/render.js';
import type { AppServices } from '../../services.js';
import {
  CreatedWebhookEndpointSchema,
  DeletedWebhookEndpoint,
  endpointIdParam,
  endpointJson,
  registerTransactionEvents,
  WebhookEndpointList,
  WebhookEndpointSchema,
  type WebhookEndpointServices,
} from '../webhook-endpoints.js';
import { errorsA, IdempotencyHeaders, jsonBody, ok, readErrors, security, writeErrors } from './common.js';

/**
 * `/v1/api/webhooks`: the caller's tenant registers, lists and deletes the endpoints its
 * transactions' status changes are sent to. Another tenant's endpoint answers 404.
 */
export function registerWebhookEndpointRoutes(
  app: InterfaceAApp,
  services: AppServices,
  webhooks: WebhookEndpointServices,
) {
  const deps = {
    endpoints: webhooks.store,
    outbound: webhooks.outbound,
    webhooks: webhooks.deliveries,
    clock: services.deps.clock,
  };

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/api/webhooks',
      operationId: 'createWebhookEndpoint',
      tags: ['Webhook endpoint'],
      summary: "Register an endpoint for the tenant's transaction status changes (the secret is shown once)",
      description:
        'The URL is refused (400) when its host resolves to a loopback, private, link-local, unique-local or cloud metadata address, unless the service runs with WEBHOOK_ALLOW_PRIVATE; it is checked again before every delivery.',
      security,
      request: { headers: IdempotencyHeaders, body: jsonBody(CreateWebhookEndpointRequest) },
      responses: { ...ok('Registered', CreatedWebhookEndpointSchema), ...writeErrors },
    }),
    async (c) => {
      const endpoint = await unwrap(
        createWebhookEndpoint(deps, { ...c.req.valid('json'), tenant: c.get('tenant').id }),
      );
      requestLogger(c, services.logger).info(
        { endpointId: endpoint.id, tenant: endpoint.tenant },
        'webhook endpoint registered',
      );
      return c.json({ ...endpointJson(endpoint), secret: webhooks.secretFor(endpoint.id) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/api/webhooks',
      operationId: 'listWebhookEndpoints',
      tags: ['Webhook endpoint'],
      summary: "The tenant's endpoints, oldest first (never their secret)",
      security,
      responses: { ...ok('Endpoints', WebhookEndpointList), ...readErrors },
    }),
    async (c) => {
      const list = await unwrap(listWebhookEndpoints(deps, { tenant: c.get('tenant').id }));
      return c.json({ webhooks: list.map(endpointJson) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/api/webhooks/{id}',
      operationId: 'getWebhookEndpoint',
      tags: ['Webhook endpoint'],
      summary: 'One of the tenant’s endpoints (never its secret)',
      security,
      request: { params: endpointIdParam },
      responses: { ...ok('Endpoint', WebhookEndpointSchema), ...readErrors, ...errorsA(404) },
    }),
    async (c) => {
      const found = await unwrap(
        getWebhookEndpoint(deps, { tenant: c.get('tenant').id, id: c.req.valid('param').id }),
      );
      return c.json(endpointJson(found), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/api/webhooks/{id}',
      operationId: 'deleteWebhookEndpoint',
      tags: ['Webhook endpoint'],
      summary:
        'Delete one of the tenant’s endpoints: no new event is queued for it, and its queued deliveries end',
      security,
      request: { params: endpointIdParam },
      responses: { ...ok('Deleted', DeletedWebhookEndpoint), ...readErrors, ...errorsA(404) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const out = await unwrap(deleteWebhookEndpoint(deps, { tenant: c.get('tenant').id, id }));
      requestLogger(c, services.logger).info(
        { endpointId: id, tenant: c.get('tenant').id, ...out },
        'webhook endpoint deleted',
      );
      return c.json({ id, deleted: true as const }, 200);
    },
  );

  registerTransactionEvents(app.openAPIRegistry);
}
