import { createRoute } from '@hono/zod-openapi';
import { type AdminDeps, revokeApiKey } from '@token-actions/core';
import { requestLogger } from '../../http/request-context.js';
import { unwrap } from '../../http/respond.js';
import { adminErrors, adminSecurity, idParam, json } from '../openapi.js';
import type { AdminApp, AdminLogger } from '../render.js';
import { ApiKey, apiKeyJson } from '../schemas.js';

const revokeApiKeyRoute = createRoute({
  method: 'delete',
  path: '/v1/admin/api-keys/{id}',
  operationId: 'revokeApiKey',
  'x-use-case': 'revokeApiKey',
  tags: ['Admin'],
  summary: 'Revoke an API key: refused at once by every server process',
  security: adminSecurity,
  request: { params: idParam },
  responses: { 200: { description: 'Revoked', content: json(ApiKey) }, ...adminErrors },
});

export function registerRevokeApiKey(app: AdminApp, deps: AdminDeps, logger: AdminLogger): void {
  app.openapi(revokeApiKeyRoute, async (c) => {
    const revoked = await unwrap(revokeApiKey(deps, { id: c.req.valid('param').id }));
    requestLogger(c, logger).info({ keyId: revoked.id, tenant: revoked.tenant }, 'API key revoked');
    return c.json(apiKeyJson(revoked, deps.clock.now()), 200);
  });
}
