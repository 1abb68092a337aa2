import type { ResultAsync } from 'neverthrow';
import { z } from 'zod';
import type { DomainError } from '../../errors.js';
import type { ActionDeps } from './deps.js';
import type { ActionOptions, ActionOutcome } from './pipeline/payment.js';
import { performAction } from './pipeline/perform.js';
import { amountField, priorityField, publicKeyField } from './request-fields.js';

/** The body of a donation; its currency comes from the route (`/donate/{ticker}`). */
export const DonateRequest = z
  .strictObject({
    account: publicKeyField('Managed sender account'),
    amount: amountField,
    priority: priorityField,
  })
  .meta({ id: 'DonateRequest' });
export type DonateRequest = z.infer<typeof DonateRequest>;

export interface DonateInput extends DonateRequest {
  /** The currency implied by the route (SOL, USDC or the project token). */
  readonly currency: string;
}

/** Donation from a managed account to the project treasury. */
export function donate(
  deps: ActionDeps,
  input: DonateInput,
  options: ActionOptions,
): ResultAsync<ActionOutcome, DomainError> {
  return performAction(deps, 'donation', { ...input }, options);
}
