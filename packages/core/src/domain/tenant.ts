import { err, ok, type Result } from 'neverthrow';
import { type DomainError, domainError } from '../errors.js';

/**
 * A tenant is one customer of the service: every API key belongs to one, and so does everything a
 * key creates (managed accounts, transactions, escrows, NFTs, previews, idempotency keys).
 */
export type TenantId = string & { readonly __brand: 'TenantId' };

/** The tenant of the development key, and of every row written before tenants existed. */
export const DEFAULT_TENANT = 'default' as TenantId;

/** Operator-chosen names: lower case, digits, `-` and `_`; never `:` (it separates scoped keys). */
const TENANT_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export function parseTenantId(value: unknown): Result<TenantId, DomainError> {
  return typeof value === 'string' && TENANT_ID.test(value)
    ? ok(value as TenantId)
    : err(
        domainError(
          'INVALID_INPUT',
          'tenant must be 1-63 characters of a-z, 0-9, "-" and "_", starting with a letter or digit',
        ),
      );
}

/** What a request acts as: its tenant and what the operator allowed that tenant. */
export interface Tenant {
  readonly id: TenantId;
  /** May pay charity donations and merchant payments out of the project treasury. */
  readonly treasuryPayments: boolean;
}

export interface TenantRecord extends Tenant {
  readonly createdAt: Date;
}

/** The default tenant as the migration creates it: treasury payments allowed. */
export const DEFAULT_TENANT_ACCESS: Tenant = { id: DEFAULT_TENANT, treasuryPayments: true };
