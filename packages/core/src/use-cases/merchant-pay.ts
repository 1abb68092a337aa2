import type { ActionDeps } from './deps.js';
import { type ActionOptions, performAction } from './perform.js';

export interface MerchantPayInput {
  readonly merchant: unknown;
  readonly amount: unknown;
  readonly currency: unknown;
  readonly useEscrow?: unknown;
  /** Paying managed account; the treasury when absent. */
  readonly account?: unknown;
  readonly priority?: unknown;
}

export function merchantPay(deps: ActionDeps, input: MerchantPayInput, options: ActionOptions = {}) {
  return performAction(deps, 'merchant_payment', { ...input }, options);
}
