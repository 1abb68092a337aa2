import type { createStandardWebhook } from '@token-actions/adapters';
import type { SwapComposition as SharedSwapComposition } from '@token-actions/runtime';

/** The swap side as the server sees it: the runtime's composition it shares with the worker, plus the inbound webhook verifier. */
export interface SwapComposition extends SharedSwapComposition {
  /** Verifies an inbound notification when WEBHOOK_SECRET is set. */
  readonly inbound?: ReturnType<typeof createStandardWebhook>;
}
