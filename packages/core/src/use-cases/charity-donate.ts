import type { ActionDeps } from './deps.js';
import { type ActionOptions, performAction } from './perform.js';

export interface CharityDonateInput {
  readonly charity: unknown;
  readonly amount: unknown;
  readonly currency: unknown;
  readonly useEscrow?: unknown;
  /** Paying managed account; the treasury when absent. */
  readonly account?: unknown;
  readonly priority?: unknown;
}

export function charityDonate(deps: ActionDeps, input: CharityDonateInput, options: ActionOptions = {}) {
  return performAction(deps, 'charity_donation', { ...input }, options);
}
