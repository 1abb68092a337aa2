import { err, ok, type ResultAsync, safeTry } from 'neverthrow';
import { encodeBase58 } from '../../domain/base58.js';
import type { Currency } from '../../domain/currency.js';
import type { PublicKey } from '../../domain/public-key.js';
import { messageSigners, splitWireTransaction } from '../../domain/signed-transaction.js';
import { type DomainError, domainError } from '../../errors.js';
import { type AggregatorQuote, type AggregatorSwap, WRAPPED_SOL_MINT } from '../../ports/aggregator.js';
import type { SwapRequestRecord } from '../../ports/swap-store.js';
import type { SwapCaller, SwapDeps } from './deps.js';
import { parseSwapRequest, type SwapRequest } from './swap-request.js';

/** The mint an aggregator knows a currency by: wrapped SOL for the native coin. */
export function mintOf(currency: Currency): string {
  return currency.mint ?? WRAPPED_SOL_MINT;
}

export interface AggregatorSwapOutcome {
  readonly requestId: string;
  readonly quote: AggregatorQuote;
  /** Unsigned: the user pays the fee and signs (pool authorities of a local route presigned). */
  readonly transaction: Uint8Array;
  readonly lastValidBlockHeight: bigint;
  readonly provider: string;
  readonly request: SwapRequestRecord;
}

/**
 * POST /aggregator/swap: quote through the aggregator port, have it build the swap transaction for
 * the user's wallet, and record the request so `executeSwap` can land exactly that transaction.
 */
export function aggregatorSwap(
  deps: Pick<SwapDeps, 'currencies' | 'aggregator' | 'swaps' | 'clock' | 'ids' | 'swapPolicies'>,
  input: SwapRequest,
  caller: SwapCaller,
): ResultAsync<AggregatorSwapOutcome, DomainError> {
  return safeTry(async function* () {
    const { pair, amount, slippageBps, user } = yield* parseSwapRequest(deps, input, caller);
    const quote = yield* deps.aggregator.quote({
      inputMint: mintOf(pair.input),
      outputMint: mintOf(pair.output),
      amount,
      slippageBps,
    });
    const requestId = deps.ids.next('swp');
    const swap = yield* deps.aggregator.swap({
      quote,
      userPublicKey: user,
      requestId,
      clientId: caller.clientId,
    });
    let request: SwapRequestRecord;
    if (swap.recorded) {
      const recorded = yield* deps.swaps.get(requestId);
      if (!recorded) return err(domainError('INTERNAL', 'the aggregator did not record the swap request'));
      request = recorded;
    } else {
      request = yield* recordExternalRoute(deps, { requestId, caller, user, pair, swap });
    }
    return ok({
      requestId,
      quote: swap.quote,
      transaction: swap.swapTransaction,
      lastValidBlockHeight: swap.lastValidBlockHeight,
      provider: deps.aggregator.name,
      request,
    });
  });
}

/**
 * An external route: nothing of ours is reserved, but the exact message is kept so execute can
 * refuse anything else.
 */
function recordExternalRoute(
  deps: Pick<SwapDeps, 'swaps' | 'clock' | 'aggregator' | 'swapPolicies'>,
  input: {
    requestId: string;
    caller: Pick<SwapCaller, 'clientId'>;
    user: PublicKey;
    pair: { input: Currency; output: Currency };
    swap: AggregatorSwap;
  },
): ResultAsync<SwapRequestRecord, DomainError> {
  const { requestId, caller, user, pair, swap } = input;
  return safeTry(async function* () {
    const parts = splitWireTransaction(swap.swapTransaction);
    const signers = parts ? messageSigners(parts.message) : undefined;
    if (!parts || !signers) {
      return err(
        domainError('AGGREGATOR_UNAVAILABLE', 'the aggregator returned a transaction that cannot be read'),
      );
    }
    const now = deps.clock.now();
    const request = yield* deps.swaps.insertExternal({
      requestId,
      source: 'aggregator',
      provider: deps.aggregator.name,
      clientId: caller.clientId,
      user,
      inputToken: pair.input.code,
      outputToken: pair.output.code,
      inAmount: swap.quote.inAmount,
      outAmount: swap.quote.outAmount,
      minOutAmount: swap.quote.otherAmountThreshold,
      feeAmount: swap.quote.routePlan[0]?.swapInfo.feeAmount ?? 0n,
      priceImpactPpm: pctToPpm(swap.quote.priceImpactPct),
      slippageBps: swap.quote.slippageBps,
      hops: [],
      status: 'prepared',
      transaction: {
        message: parts.message,
        signers: signers.map((s) => encodeBase58(s) as PublicKey),
        presigned: {},
        blockhash: '',
        lastValidBlockHeight: swap.lastValidBlockHeight,
        feeLamports: swap.prioritizationFeeLamports ?? 0n,
        computeUnitLimit: swap.computeUnitLimit ?? 0,
        computeUnitPrice: 0n,
      },
      expiresAt: new Date(now.getTime() + deps.swapPolicies.quoteTtlMs),
      createdAt: now,
      updatedAt: now,
    });
    return ok(request);
  });
}

/** "0.0012" (a fraction, Jupiter's form) -> 1200 ppm; anything unreadable -> 0. */
export function pctToPpm(fraction: string): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(fraction);
  if (!m) return 0n;
  const frac = (m[2] ?? '').padEnd(6, '0').slice(0, 6);
  return BigInt(m[1]!) * 1_000_000n + BigInt(frac || '0');
}

/** ppm -> "0.0012" (a fraction). */
export function ppmToFraction(ppm: bigint): string {
  const whole = ppm / 1_000_000n;
  const frac = (ppm % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : `${whole}`;
}
