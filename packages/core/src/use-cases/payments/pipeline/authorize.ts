import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import type { PublicKey } from '../../../domain/public-key.js';
import type { Tenant, TenantId } from '../../../domain/tenant.js';
import { type DomainError, domainError } from '../../../errors.js';
import type { ActionDeps } from '../deps.js';
import type { Action } from './payment.js';

/**
 * The sender must be a managed account of the caller's tenant. Another tenant's account, a key
 * the service does not hold, and the service's own keys (escrow vault, mint authority, pools) all
 * get the same answer, so nothing tells them apart.
 */
export function requireManaged(
  deps: Pick<ActionDeps, 'keystore'>,
  account: PublicKey,
  tenant: TenantId,
  field = 'account',
): ResultAsync<PublicKey, DomainError> {
  return deps.keystore
    .lookup(account)
    .andThen((held) =>
      held?.tenant === tenant
        ? okAsync(account)
        : errAsync(
            domainError(
              'UNKNOWN_ACCOUNT',
              `${field} ${account} is not an account managed by this service; create one with POST /v1/api/accounts`,
            ),
          ),
    );
}

/**
 * Who may send what: a mint is the project's (its fees are sponsored like every fee), a payment
 * from the treasury needs the tenant's `treasuryPayments` permission, anything else must come from
 * one of the tenant's own managed accounts.
 */
export function authorizeAction(
  deps: Pick<ActionDeps, 'keystore' | 'accounts'>,
  action: Action,
  tenant: Tenant,
): ResultAsync<Action, DomainError> {
  if (action.type === 'mint') return okAsync(action);
  if (action.from === deps.accounts.treasury) {
    return tenant.treasuryPayments
      ? okAsync(action)
      : errAsync(
          domainError(
            'FORBIDDEN',
            'this API key may not pay from the project treasury; name one of your managed accounts in "account"',
          ),
        );
  }
  return requireManaged(deps, action.from, tenant.id).map(() => action);
}
