import type { PriorityLevel } from '../../domain/priority.js';
import type { PublicKey } from '../../domain/public-key.js';
import type { AggregatorPort } from '../../ports/aggregator.js';
import type { OAuthClientStore } from '../../ports/oauth.js';
import type { SwapStore } from '../../ports/swap-store.js';
import type { WebhookSenderPort, WebhookStore } from '../../ports/webhooks.js';
import type { ActionDeps } from '../payments/deps.js';

export interface SwapPolicies {
  /** Slippage when the request names none. */
  readonly defaultSlippageBps: number;
  readonly maxSlippageBps: number;
  readonly defaultPageSize: number;
  readonly maxPageSize: number;
  /**
   * A quote counts against `maxOpenQuotesPerClient` for at most this long (less once it is
   * executed or its blockhash runs out); a request stored without a transaction (reserved without
   * `build`) is released after it.
   */
  readonly quoteTtlMs: number;
  /** Priority level of swap transactions. */
  readonly priority: PriorityLevel;
  readonly webhookMaxAttempts: number;
  /** First retry delay; doubles each attempt up to `webhookRetryMaxMs`, with jitter. */
  readonly webhookRetryBaseMs: number;
  readonly webhookRetryMaxMs: number;
  /**
   * Firm quotes a client may hold unexecuted at once (`prepared`, not expired): each one reserves
   * pool output, so a client quoting without executing could otherwise tie up a pool's liquidity.
   */
  readonly maxOpenQuotesPerClient: number;
}

export const DEFAULT_SWAP_POLICIES: SwapPolicies = {
  defaultSlippageBps: 50,
  maxSlippageBps: 5_000,
  defaultPageSize: 20,
  maxPageSize: 100,
  quoteTtlMs: 120_000,
  priority: 'Medium',
  webhookMaxAttempts: 8,
  webhookRetryBaseMs: 1_000,
  webhookRetryMaxMs: 3_600_000,
  maxOpenQuotesPerClient: 20,
};

/**
 * Everything the swap use-cases may need; each takes only the part it uses (`Pick`). The ports
 * shared with the payments use-cases are the same ones, so they are taken from ActionDeps.
 */
export interface SwapDeps
  extends Pick<ActionDeps, 'chain' | 'keystore' | 'store' | 'fees' | 'clock' | 'ids' | 'currencies'> {
  readonly swaps: SwapStore;
  readonly aggregator: AggregatorPort;
  readonly webhooks: WebhookStore;
  /** Where clients' webhook URLs are registered. */
  readonly clients: Pick<OAuthClientStore, 'get'>;
  readonly webhookSender?: WebhookSenderPort;
  readonly swapPolicies: SwapPolicies;
  /** [0, 1), for retry jitter; Math.random by default. */
  readonly random?: () => number;
}

/** Who asks: the wallet an OAuth token speaks for, and the client it was issued to. */
export interface SwapCaller {
  readonly subject: PublicKey;
  readonly clientId: string;
}
