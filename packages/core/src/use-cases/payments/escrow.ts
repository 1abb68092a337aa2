import { err, errAsync, ok, ResultAsync, safeTry } from 'neverthrow';
import { PRIORITY_LEVELS } from '../../domain/priority.js';
import type { PublicKey } from '../../domain/public-key.js';
import type { TenantId } from '../../domain/tenant.js';
import { type DomainError, domainError } from '../../errors.js';
import type { EscrowRecord } from '../../ports/store.js';
import type { ActionDeps } from './deps.js';
import { prepareIntent } from './pipeline/prepare.js';
import { recordAndSend } from './pipeline/record.js';
import { signPrepared } from './pipeline/sign.js';
import { refreshStatuses } from './tracking.js';

export type EscrowSettlement = 'release' | 'refund';

export interface EscrowOutcome {
  readonly escrow: EscrowRecord;
  readonly transactionId: string;
  readonly message: string;
}

/** Another tenant's escrow is not found, with the message of an id nobody knows. */
function loadEscrow(deps: Pick<ActionDeps, 'store'>, id: unknown, tenant: TenantId) {
  if (typeof id !== 'string' || !/^esc_[A-Za-z0-9_-]{1,64}$/.test(id)) {
    return errAsync(domainError('INVALID_INPUT', 'escrow id must look like esc_...'));
  }
  return deps.store.escrows
    .get(id, tenant)
    .andThen((escrow) =>
      escrow ? ok(escrow) : err(domainError('ESCROW_NOT_FOUND', `escrow ${id} does not exist`)),
    );
}

export function getEscrow(
  deps: Pick<ActionDeps, 'store'>,
  input: { readonly id: string; readonly tenant: TenantId },
) {
  return loadEscrow(deps, input.id, input.tenant);
}

/**
 * Pays an escrow out of the vault: to the beneficiary (release) or back to the payer (refund).
 * The escrow only settles once its funding transaction is confirmed, so the shared vault never
 * pays out funds that have not arrived. The held -> settled compare-and-set happens before the
 * transfer is sent, so two concurrent settlements cannot both pay.
 */
export function settleEscrow(
  deps: ActionDeps,
  input: { readonly id: string; readonly settlement: EscrowSettlement; readonly tenant: TenantId },
): ResultAsync<EscrowOutcome, DomainError> {
  return safeTry(async function* () {
    const escrow = yield* loadEscrow(deps, input.id, input.tenant);
    if (escrow.status !== 'held') {
      return err(domainError('ESCROW_NOT_HELD', `escrow ${escrow.id} is already ${escrow.status}`));
    }
    const funding = yield* deps.store.transactions.get(escrow.fundingTransactionId);
    const [current] = funding ? yield* refreshStatuses(deps, [funding]) : [];
    if (!current || (current.status !== 'confirmed' && current.status !== 'finalized')) {
      return err(
        domainError(
          'ESCROW_NOT_HELD',
          `escrow ${escrow.id} is not funded yet: its funding transaction is ${current?.status ?? 'unknown'}`,
        ),
      );
    }
    const currency = yield* deps.currencies.parse(escrow.currency);
    const to: PublicKey = input.settlement === 'release' ? escrow.beneficiary : escrow.payer;
    const prepared = yield* prepareIntent(
      deps,
      { kind: 'transfer', currency, from: deps.accounts.escrowVault, to, amount: escrow.amount },
      PRIORITY_LEVELS[2],
    );
    const signed = yield* signPrepared(deps, prepared);
    const settled = yield* deps.store.escrows.settle(
      escrow.id,
      input.settlement === 'release' ? 'released' : 'refunded',
      signed.id,
    );
    if (!settled) return err(domainError('ESCROW_NOT_HELD', `escrow ${escrow.id} was settled concurrently`));
    // The payout is the escrow's tenant's transaction, whoever settles it (the worker, at expiry).
    yield* recordAndSend(deps, prepared, signed, {
      tenant: escrow.tenant,
      kind: input.settlement === 'release' ? 'escrow_release' : 'escrow_refund',
      currency: currency.code,
      amount: escrow.amount,
      from: deps.accounts.escrowVault,
      to,
      escrowId: escrow.id,
      priority: 'Medium',
    });
    const after = yield* deps.store.escrows.get(escrow.id, escrow.tenant);
    return ok({
      escrow: after ?? escrow,
      transactionId: signed.id,
      message: `Escrow ${escrow.id} ${input.settlement === 'release' ? 'released to' : 'refunded to'} ${to}`,
    });
  });
}

/** Applies each expired escrow's configured action. Errors on one escrow do not stop the others. */
export function settleExpiredEscrows(
  deps: ActionDeps,
  limit = 100,
): ResultAsync<{ settled: number; failed: number }, DomainError> {
  return deps.store.escrows.listExpired(deps.clock.now(), limit).andThen((expired) =>
    ResultAsync.combine(
      expired.map((e) =>
        settleEscrow(deps, { id: e.id, settlement: e.expiryAction, tenant: e.tenant })
          .map(() => true)
          .orElse(() => ok(false)),
      ),
    ).map((results) => ({
      settled: results.filter(Boolean).length,
      failed: results.filter((r) => !r).length,
    })),
  );
}
