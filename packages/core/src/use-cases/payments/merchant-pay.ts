import type { ResultAsync } from 'neverthrow';
import { z } from 'zod';
import type { DomainError } from '../../errors.js';
import type { ActionDeps } from './deps.js';
import type { ActionOptions, ActionOutcome } from './pipeline/payment.js';
import { performAction } from './pipeline/perform.js';
import { amountField, currencyField, priorityField, publicKeyField } from './request-fields.js';

export const MerchantPaymentRequest = z
  .strictObject({
    merchant: publicKeyField("Merchant's account"),
    amount: amountField,
    currency: currencyField,
    useEscrow: z.boolean().optional(),
    account: publicKeyField('Paying managed account; the project treasury when absent').optional(),
    priority: priorityField.optional(),
  })
  .meta({ id: 'MerchantPaymentRequest' });
export type MerchantPaymentRequest = z.infer<typeof MerchantPaymentRequest>;

/** Payment to a merchant, from a managed account or the treasury, optionally held in escrow. */
export function merchantPay(
  deps: ActionDeps,
  input: MerchantPaymentRequest,
  options: ActionOptions,
): ResultAsync<ActionOutcome, DomainError> {
  return performAction(deps, 'merchant_payment', { ...input }, options);
}
