import { err, ok, type ResultAsync, safeTry } from 'neverthrow';
import { z } from 'zod';
import { parseTenantId, type TenantRecord } from '../../domain/tenant.js';
import { type DomainError, domainError } from '../../errors.js';
import type { AdminDeps } from './api-keys.js';

export const UpdateTenantRequest = z
  .strictObject({
    treasuryPayments: z.boolean().meta({
      description: 'May pay charity donations and merchant payments from the project treasury',
    }),
  })
  .meta({ id: 'UpdateTenantRequest' });
export type UpdateTenantRequest = z.infer<typeof UpdateTenantRequest>;

const notFound = (id: string) => domainError('TENANT_NOT_FOUND', `tenant ${id.slice(0, 64)} does not exist`);

export function getTenant(
  deps: AdminDeps,
  input: { readonly id: string },
): ResultAsync<TenantRecord, DomainError> {
  return safeTry(async function* () {
    const id = yield* parseTenantId(input.id);
    const tenant = yield* deps.store.tenants.get(id);
    return tenant ? ok(tenant) : err(notFound(id));
  });
}

export function listTenants(deps: AdminDeps) {
  return deps.store.tenants.list();
}

/** The operator's switches of one tenant; the tenant must exist (keys create tenants). */
export function updateTenant(
  deps: AdminDeps,
  input: { readonly id: string } & UpdateTenantRequest,
): ResultAsync<TenantRecord, DomainError> {
  return safeTry(async function* () {
    const id = yield* parseTenantId(input.id);
    if (typeof input.treasuryPayments !== 'boolean') {
      return err(domainError('INVALID_INPUT', 'treasuryPayments must be a boolean'));
    }
    const updated = yield* deps.store.tenants.update(id, { treasuryPayments: input.treasuryPayments });
    return updated ? ok(updated) : err(notFound(id));
  });
}
