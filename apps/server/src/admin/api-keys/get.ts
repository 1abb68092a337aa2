import { createRoute } from '@hono/zod-openapi';
import { type AdminDeps, getApiKey } from '@token-actions/core';
import { unwrap } from '../../http/respond.js';
import { adminErrors, adminSecurity, idParam, json } from '../openapi.js';
import type { AdminApp } from '../render.js';
import { ApiKey, apiKeyJson } from '../schemas.js';

const getApiKeyRoute = createRoute({
  method: 'get',
  path: '/v1/admin/api-keys/{id}',
  operationId: 'getApiKey',
  'x-use-case': 'getApiKey',
  tags: ['Admin'],
  summary: 'One API key (never its secret or hash)',
  security: adminSecurity,
  request: { params: idParam },
  responses: { 200: { description: 'Key', content: json(ApiKey) }, ...adminErrors },
});

export function registerGetApiKey(app: AdminApp, deps: AdminDeps): void {
  app.openapi(getApiKeyRoute, async (c) => {
    const key = await unwrap(getApiKey(deps, { id: c.req.valid('param').id }));
    return c.json(apiKeyJson(key, deps.clock.now()), 200);
  });
}
