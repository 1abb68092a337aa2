import { z } from '@hono/zod-openapi';
import {
  type ApiKeyRecord,
  type IssuedApiKey as Issued,
  isApiKeyActive,
  type TenantRecord,
} from '@token-actions/core';

export const AdminError = z
  .object({ code: z.string(), message: z.string() })
  .openapi('AdminError', { description: 'An admin API error: a stable code and a sentence' });

export const ApiKey = z
  .object({
    id: z.string(),
    prefix: z.string().nullable().openapi({ description: 'The first characters of the key; never the key' }),
    label: z.string(),
    tenant: z.string(),
    status: z.enum(['active', 'revoked', 'expired']),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
  })
  .openapi('ApiKey');

export const IssuedApiKey = z
  .object({
    id: z.string(),
    apiKey: z.string().openapi({ description: 'The secret: shown this once, stored only as a hash' }),
    label: z.string(),
    tenant: z.string(),
    prefix: z.string(),
    createdAt: z.string(),
  })
  .openapi('IssuedApiKey');

export const RotatedApiKey = IssuedApiKey.extend({
  previous: z.object({ id: z.string(), expiresAt: z.string() }),
}).openapi('RotatedApiKey');

export const ApiKeyList = z.object({ apiKeys: z.array(ApiKey) }).openapi('ApiKeyList');

export const Tenant = z
  .object({ id: z.string(), treasuryPayments: z.boolean(), createdAt: z.string() })
  .openapi('Tenant');

export const TenantList = z.object({ tenants: z.array(Tenant) }).openapi('TenantList');

const iso = (d: Date | undefined) => (d ? d.toISOString() : null);

export function apiKeyJson(key: ApiKeyRecord, now: Date): z.infer<typeof ApiKey> {
  return {
    id: key.id,
    prefix: key.prefix ?? null,
    label: key.label,
    tenant: key.tenant,
    status: key.revokedAt ? 'revoked' : isApiKeyActive(key, now) ? 'active' : 'expired',
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: iso(key.lastUsedAt),
    revokedAt: iso(key.revokedAt),
    expiresAt: iso(key.expiresAt),
  };
}

export function tenantJson(tenant: TenantRecord): z.infer<typeof Tenant> {
  return {
    id: tenant.id,
    treasuryPayments: tenant.treasuryPayments,
    createdAt: tenant.createdAt.toISOString(),
  };
}

/** A newly issued key as its creation and its rotation answer it: the secret, this once. */
export function issuedJson({ record, apiKey }: Issued) {
  return {
    id: record.id,
    apiKey,
    label: record.label,
    tenant: record.tenant,
    prefix: record.prefix ?? '',
    createdAt: record.createdAt.toISOString(),
  };
}
