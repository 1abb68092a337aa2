import type { ResultAsync } from 'neverthrow';
import type { PublicKey, Signature } from '../domain/public-key.js';
import type { DomainError } from '../errors.js';

/**
 * A swap aggregator, shaped after Jupiter's Swap API (`GET /quote`, `POST /swap`). Mints are base58;
 * the native coin is the wrapped-SOL mint, as Jupiter names it. Amounts are base units.
 */
export const WRAPPED_SOL_MINT = 'So11111111111111111111111111111111111111112';

export interface AggregatorQuoteRequest {
  readonly inputMint: string;
  readonly outputMint: string;
  /** Exact input, base units (swapMode ExactIn). */
  readonly amount: bigint;
  readonly slippageBps: number;
}

export interface RoutePlanStep {
  readonly swapInfo: {
    /** The pool (AMM) crossed. */
    readonly ammKey: string;
    readonly label: string;
    readonly inputMint: string;
    readonly outputMint: string;
    readonly inAmount: bigint;
    readonly outAmount: bigint;
    readonly feeAmount: bigint;
    readonly feeMint: string;
  };
  readonly percent: number;
}

export interface AggregatorQuote {
  readonly inputMint: string;
  readonly inAmount: bigint;
  readonly outputMint: string;
  readonly outAmount: bigint;
  /** Minimum output after slippage (ExactIn). */
  readonly otherAmountThreshold: bigint;
  readonly swapMode: 'ExactIn';
  readonly slippageBps: number;
  /** Decimal fraction as a string, as Jupiter reports it ("0.0012" = 0.12%). */
  readonly priceImpactPct: string;
  readonly routePlan: readonly RoutePlanStep[];
  readonly contextSlot?: number;
  readonly timeTaken?: number;
  /** The provider's own quote object, handed back unchanged to `swap`. */
  readonly raw?: unknown;
}

export interface AggregatorSwapRequest {
  readonly quote: AggregatorQuote;
  readonly userPublicKey: PublicKey;
  /** Service context: the swap request this transaction belongs to and the OAuth client asking.
   * An adapter that routes over the service's own pools reserves under this id. */
  readonly requestId: string;
  readonly clientId: string;
}

export interface AggregatorSwap {
  /** The transaction for the user to sign (fee payer: the user). */
  readonly swapTransaction: Uint8Array;
  readonly lastValidBlockHeight: bigint;
  readonly prioritizationFeeLamports?: bigint;
  readonly computeUnitLimit?: number;
  /** The quote the transaction actually settles (re-priced by a local router at build time). */
  readonly quote: AggregatorQuote;
  /** True when the adapter recorded the swap request (with its reservations) in the swap book. */
  readonly recorded: boolean;
  readonly transactionId?: Signature;
}

export interface AggregatorPort {
  /** Short name reported with quotes: `local`, `jupiter`. */
  readonly name: string;
  quote(request: AggregatorQuoteRequest): ResultAsync<AggregatorQuote, DomainError>;
  swap(request: AggregatorSwapRequest): ResultAsync<AggregatorSwap, DomainError>;
}
