import { createRoute, z } from '@hono/zod-openapi';
import { type AdminDeps, listApiKeys } from '@token-actions/core';
import { unwrap } from '../../http/respond.js';
import { adminErrors, adminSecurity, json } from '../openapi.js';
import type { AdminApp } from '../render.js';
import { ApiKeyList, apiKeyJson } from '../schemas.js';

const listApiKeysRoute = createRoute({
  method: 'get',
  path: '/v1/admin/api-keys',
  operationId: 'listApiKeys',
  'x-use-case': 'listApiKeys',
  tags: ['Admin'],
  summary: 'List API keys (never their secret or hash), oldest first',
  security: adminSecurity,
  request: {
    query: z.object({
      tenant: z
        .string()
        .optional()
        .openapi({ param: { name: 'tenant', in: 'query' } }),
    }),
  },
  responses: { 200: { description: 'Keys', content: json(ApiKeyList) }, ...adminErrors },
});

export function registerListApiKeys(app: AdminApp, deps: AdminDeps): void {
  app.openapi(listApiKeysRoute, async (c) => {
    const { tenant } = c.req.valid('query');
    const keys = await unwrap(listApiKeys(deps, tenant === undefined ? {} : { tenant }));
    const now = deps.clock.now();
    return c.json({ apiKeys: keys.map((k) => apiKeyJson(k, now)) }, 200);
  });
}
