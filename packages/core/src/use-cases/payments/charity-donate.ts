import type { ResultAsync } from 'neverthrow';
import { z } from 'zod';
import type { DomainError } from '../../errors.js';
import type { ActionDeps } from './deps.js';
import type { ActionOptions, ActionOutcome } from './pipeline/payment.js';
import { performAction } from './pipeline/perform.js';
import { amountField, currencyField, priorityField, publicKeyField } from './request-fields.js';

export const CharityDonationRequest = z
  .strictObject({
    charity: publicKeyField("Charity's account"),
    amount: amountField,
    currency: currencyField,
    useEscrow: z.boolean().optional(),
    account: publicKeyField('Paying managed account; the project treasury when absent').optional(),
    priority: priorityField.optional(),
  })
  .meta({ id: 'CharityDonationRequest' });
export type CharityDonationRequest = z.infer<typeof CharityDonationRequest>;

/** Donation to a charity, from a managed account or the treasury, optionally held in escrow. */
export function charityDonate(
  deps: ActionDeps,
  input: CharityDonationRequest,
  options: ActionOptions,
): ResultAsync<ActionOutcome, DomainError> {
  return performAction(deps, 'charity_donation', { ...input }, options);
}
