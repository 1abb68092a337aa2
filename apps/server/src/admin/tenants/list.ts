import { createRoute } from '@hono/zod-openapi';
import { type AdminDeps, listTenants } from '@token-actions/core';
import { unwrap } from '../../http/respond.js';
import { adminErrors, adminSecurity, json } from '../openapi.js';
import type { AdminApp } from '../render.js';
import { TenantList, tenantJson } from '../schemas.js';

const listTenantsRoute = createRoute({
  method: 'get',
  path: '/v1/admin/tenants',
  operationId: 'listTenants',
  'x-use-case': 'listTenants',
  tags: ['Admin'],
  summary: 'List tenants',
  security: adminSecurity,
  responses: { 200: { description: 'Tenants', content: json(TenantList) }, ...adminErrors },
});

/** Tenants are created by issuing them a key; here the operator reads them. */
export function registerListTenants(app: AdminApp, deps: AdminDeps): void {
  app.openapi(listTenantsRoute, async (c) =>
    c.json({ tenants: (await unwrap(listTenants(deps))).map(tenantJson) }, 200),
  );
}
