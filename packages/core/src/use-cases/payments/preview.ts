import { ok, type ResultAsync, safeTry } from 'neverthrow';
import { z } from 'zod';
import { formatAmount } from '../../domain/money.js';
import type { PublicKey } from '../../domain/public-key.js';
import type { Tenant } from '../../domain/tenant.js';
import type { DomainError } from '../../errors.js';
import type { ActionDeps } from './deps.js';
import { authorizeAction } from './pipeline/authorize.js';
import { parsePreviewRequest } from './pipeline/parse.js';
import type { Action, ActionType } from './pipeline/payment.js';
import { planAction } from './pipeline/plan.js';
import { prepareIntent } from './pipeline/prepare.js';
import { sealPreview } from './pipeline/seal.js';
import { detailsField, publicKeyField, transactionTypeField } from './request-fields.js';

export const TransactionPreviewRequest = z
  .strictObject({
    account: publicKeyField("Sender's account"),
    transactionType: transactionTypeField,
    details: detailsField,
  })
  .meta({ id: 'TransactionPreviewRequest' });
export type TransactionPreviewRequest = z.infer<typeof TransactionPreviewRequest>;

export interface BalanceChange {
  readonly account: string;
  readonly currency: string;
  /** Signed decimal string, negative for a debit. */
  readonly amount: string;
}

export interface PreviewOutcome {
  /** Opaque, tamper-evident: `v1.<payload>.<mac>`. */
  readonly preview: string;
  readonly transactionType: ActionType;
  readonly expiresAt: Date;
  readonly feeLamports: bigint;
  readonly lastValidBlockHeight: bigint;
  readonly balanceChanges: readonly BalanceChange[];
}

function balanceChanges(action: Action, to: PublicKey | undefined): BalanceChange[] {
  if (action.type === 'mint') return [{ account: action.owner, currency: 'NFT', amount: '1' }];
  const amount = formatAmount(action.amount, action.currency.decimals);
  return [
    { account: action.from, currency: action.currency.code, amount: `-${amount}` },
    { account: to ?? action.from, currency: action.currency.code, amount },
  ];
}

/**
 * Builds the transaction now and seals it, so `sign` later sends exactly what the caller saw:
 * parse, authorize, plan, prepare, then seal instead of signing.
 */
export function preview(
  deps: ActionDeps,
  input: TransactionPreviewRequest,
  tenant: Tenant,
): ResultAsync<PreviewOutcome, DomainError> {
  return safeTry(async function* () {
    const { type, details, action: parsed } = yield* parsePreviewRequest(deps, input);
    const action = yield* authorizeAction(deps, parsed, tenant);
    const plan = planAction(deps, action);
    const prepared = yield* prepareIntent(deps, plan.intent, action.priority);
    const expiresAt = new Date(deps.clock.now().getTime() + deps.policies.previewTtlMs);
    const sealed = yield* sealPreview(
      deps,
      tenant.id,
      { account: input.account, type, details },
      prepared,
      expiresAt,
    );
    return ok({
      preview: sealed,
      transactionType: type,
      expiresAt,
      feeLamports: prepared.feeLamports,
      lastValidBlockHeight: prepared.lastValidBlockHeight,
      balanceChanges: balanceChanges(action, plan.intent.kind === 'transfer' ? plan.intent.to : undefined),
    });
  });
}
