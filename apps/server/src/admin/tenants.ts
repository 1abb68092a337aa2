import { createRoute, z } from '@hono/zod-openapi';
import { type AdminDeps, getTenant, listTenants, updateTenant } from '@token-actions/core';
import { requestLogger } from '../http/request-context.js';
import { unwrap } from '../http/respond.js';
import { adminErrors, adminSecurity } from './api-keys.js';
import type { AdminApp, AdminLogger } from './render.js';
import { Tenant, TenantList, tenantJson, UpdateTenantRequest } from './schemas.js';

const idParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });

/** Tenants are created by issuing them a key; here the operator reads them and sets their permission. */
export function registerTenantRoutes(app: AdminApp, deps: AdminDeps, logger: AdminLogger) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/admin/tenants',
      operationId: 'listTenants',
      tags: ['Admin'],
      summary: 'List tenants',
      security: adminSecurity,
      responses: {
        200: { description: 'Tenants', content: { 'application/json': { schema: TenantList } } },
        ...adminErrors,
      },
    }),
    async (c) => c.json({ tenants: (await unwrap(listTenants(deps))).map(tenantJson) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/admin/tenants/{id}',
      operationId: 'getTenant',
      tags: ['Admin'],
      summary: 'One tenant',
      security: adminSecurity,
      request: { params: idParam },
      responses: {
        200: { description: 'Tenant', content: { 'application/json': { schema: Tenant } } },
        ...adminErrors,
      },
    }),
    async (c) => c.json(tenantJson(await unwrap(getTenant(deps, { id: c.req.valid('param').id }))), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/v1/admin/tenants/{id}',
      operationId: 'updateTenant',
      tags: ['Admin'],
      summary: 'Allow or refuse a tenant’s charity and merchant payments from the project treasury',
      security: adminSecurity,
      request: {
        params: idParam,
        body: { required: true, content: { 'application/json': { schema: UpdateTenantRequest } } },
      },
      responses: {
        200: { description: 'Updated', content: { 'application/json': { schema: Tenant } } },
        ...adminErrors,
      },
    }),
    async (c) => {
      const updated = await unwrap(
        updateTenant(deps, { id: c.req.valid('param').id, ...c.req.valid('json') }),
      );
      requestLogger(c, logger).info(
        { tenant: updated.id, treasuryPayments: updated.treasuryPayments },
        'tenant updated',
      );
      return c.json(tenantJson(updated), 200);
    },
  );
}
