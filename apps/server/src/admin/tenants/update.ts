import { createRoute } from '@hono/zod-openapi';
import { type AdminDeps, UpdateTenantRequest, updateTenant } from '@token-actions/core';
import { requestLogger } from '../../http/request-context.js';
import { unwrap } from '../../http/respond.js';
import { adminErrors, adminSecurity, idParam, json } from '../openapi.js';
import type { AdminApp, AdminLogger } from '../render.js';
import { Tenant, tenantJson } from '../schemas.js';

const updateTenantRoute = createRoute({
  method: 'patch',
  path: '/v1/admin/tenants/{id}',
  operationId: 'updateTenant',
  'x-use-case': 'updateTenant',
  tags: ['Admin'],
  summary: 'Allow or refuse a tenant’s charity and merchant payments from the project treasury',
  security: adminSecurity,
  request: { params: idParam, body: { required: true, content: json(UpdateTenantRequest) } },
  responses: { 200: { description: 'Updated', content: json(Tenant) }, ...adminErrors },
});

export function registerUpdateTenant(app: AdminApp, deps: AdminDeps, logger: AdminLogger): void {
  app.openapi(updateTenantRoute, async (c) => {
    const updated = await unwrap(updateTenant(deps, { id: c.req.valid('param').id, ...c.req.valid('json') }));
    requestLogger(c, logger).info(
      { tenant: updated.id, treasuryPayments: updated.treasuryPayments },
      'tenant updated',
    );
    return c.json(tenantJson(updated), 200);
  });
}
