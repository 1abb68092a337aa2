import { createRoute } from '@hono/zod-openapi';
import { type AdminDeps, CreateApiKeyRequest, createApiKey } from '@token-actions/core';
import { requestLogger } from '../../http/request-context.js';
import { unwrap } from '../../http/respond.js';
import { adminErrors, adminSecurity, json } from '../openapi.js';
import type { AdminApp, AdminLogger } from '../render.js';
import { IssuedApiKey, issuedJson } from '../schemas.js';

const createApiKeyRoute = createRoute({
  method: 'post',
  path: '/v1/admin/api-keys',
  operationId: 'createApiKey',
  'x-use-case': 'createApiKey',
  tags: ['Admin'],
  summary: 'Issue an API key for a tenant (the secret is shown once)',
  security: adminSecurity,
  request: { body: { required: true, content: json(CreateApiKeyRequest) } },
  responses: { 201: { description: 'Issued', content: json(IssuedApiKey) }, ...adminErrors },
});

/** Payments' API keys are issued once and stored only as a hash; the tenant is made with its first. */
export function registerCreateApiKey(app: AdminApp, deps: AdminDeps, logger: AdminLogger): void {
  app.openapi(createApiKeyRoute, async (c) => {
    const issued = await unwrap(createApiKey(deps, c.req.valid('json')));
    requestLogger(c, logger).info(
      { keyId: issued.record.id, tenant: issued.record.tenant },
      'API key issued',
    );
    return c.json(issuedJson(issued), 201);
  });
}
