import type { ActionDeps } from './deps.js';
import { type ActionOptions, performAction } from './perform.js';

export interface DonateInput {
  /** The currency implied by the route (SOL, USDC or the project token). */
  readonly currency: string;
  readonly account: unknown;
  readonly amount: unknown;
  readonly priority: unknown;
}

/** Donation from a managed account to the project treasury. */
export function donate(deps: ActionDeps, input: DonateInput, options: ActionOptions = {}) {
  return performAction(deps, 'donation', { ...input }, options);
}
