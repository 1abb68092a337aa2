import { createRoute } from '@hono/zod-openapi';
import { type AdminDeps, getTenant } from '@token-actions/core';
import { unwrap } from '../../http/respond.js';
import { adminErrors, adminSecurity, idParam, json } from '../openapi.js';
import type { AdminApp } from '../render.js';
import { Tenant, tenantJson } from '../schemas.js';

const getTenantRoute = createRoute({
  method: 'get',
  path: '/v1/admin/tenants/{id}',
  operationId: 'getTenant',
  'x-use-case': 'getTenant',
  tags: ['Admin'],
  summary: 'One tenant',
  security: adminSecurity,
  request: { params: idParam },
  responses: { 200: { description: 'Tenant', content: json(Tenant) }, ...adminErrors },
});

export function registerGetTenant(app: AdminApp, deps: AdminDeps): void {
  app.openapi(getTenantRoute, async (c) =>
    c.json(tenantJson(await unwrap(getTenant(deps, { id: c.req.valid('param').id }))), 200),
  );
}
