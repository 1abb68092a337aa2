import type { ActionDeps } from './deps.js';
import { performAction } from './perform.js';

export interface MerchantPayInput {
  readonly merchant: unknown;
  readonly amount: unknown;
  readonly currency: unknown;
  readonly useEscrow?: unknown;
  /** Paying managed account; the treasury when absent. */
  readonly account?: unknown;
  readonly priority?: unknown;
}

export function merchantPay(deps: ActionDeps, input: MerchantPayInput) {
  return performAction(deps, 'merchant_payment', { ...input });
}
