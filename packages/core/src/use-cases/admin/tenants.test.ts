import { describe, expect, it } from 'vitest';
import { DEFAULT_TENANT } from '../../domain/tenant.js';
import { createTestDeps } from '../../testing/index.js';
import { createApiKey } from './api-keys.js';
import { getTenant, updateTenant } from './tenants.js';

describe('operator use-cases: tenants', () => {
  it('switches a tenant’s treasury permission; the default tenant has it', async () => {
    const t = await createTestDeps();
    expect((await getTenant(t.deps, { id: DEFAULT_TENANT }))._unsafeUnwrap().treasuryPayments).toBe(true);
    (await createApiKey(t.deps, { label: 'x', tenant: 'shop' }))._unsafeUnwrap();
    expect(
      (await updateTenant(t.deps, { id: 'shop', treasuryPayments: true }))._unsafeUnwrap().treasuryPayments,
    ).toBe(true);
    expect(
      (await updateTenant(t.deps, { id: 'nobody', treasuryPayments: true }))._unsafeUnwrapErr().code,
    ).toBe('TENANT_NOT_FOUND');
  });
});
