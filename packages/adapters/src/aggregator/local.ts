import {
  type AggregatorPort,
  type AggregatorQuote,
  type AggregatorSwap,
  bestRoute,
  type Currency,
  type DomainError,
  domainError,
  loadPools,
  mintOf,
  type PricedRoute,
  ppmToFraction,
  reserveAndBuild,
  type SwapDeps,
  type SwapHop,
  WRAPPED_SOL_MINT,
} from '@token-actions/core';
import { err, errAsync, ok, okAsync, type Result, type ResultAsync } from 'neverthrow';

export type LocalAggregatorDeps = Pick<
  SwapDeps,
  'swaps' | 'chain' | 'keystore' | 'fees' | 'currencies' | 'clock' | 'swapPolicies'
>;

const LABEL = 'Token Actions pool';

type Currencies = LocalAggregatorDeps['currencies'];

function currencyOfMint(currencies: Currencies, mint: string): Currency | undefined {
  return mint === WRAPPED_SOL_MINT ? currencies.native : currencies.all.find((c) => c.mint === mint);
}

/** A priced route in Jupiter's quote shape, every hop labelled as one of the project's pools. */
function toQuote(
  currencies: Currencies,
  route: { hops: readonly SwapHop[]; outAmount: bigint; minOutAmount: bigint; priceImpactPpm: bigint },
  inAmount: bigint,
  slippageBps: number,
): AggregatorQuote {
  const mint = (code: string) => mintOf(currencies.byCode(code)!);
  const first = route.hops[0]!;
  const last = route.hops[route.hops.length - 1]!;
  return {
    inputMint: mint(first.inputToken),
    inAmount,
    outputMint: mint(last.outputToken),
    outAmount: route.outAmount,
    otherAmountThreshold: route.minOutAmount,
    swapMode: 'ExactIn',
    slippageBps,
    priceImpactPct: ppmToFraction(route.priceImpactPpm),
    routePlan: route.hops.map((hop) => ({
      swapInfo: {
        ammKey: hop.pool,
        label: LABEL,
        inputMint: mint(hop.inputToken),
        outputMint: mint(hop.outputToken),
        inAmount: hop.inAmount,
        outAmount: hop.outAmount,
        feeAmount: hop.feeAmount,
        feeMint: mint(hop.inputToken),
      },
      percent: 100,
    })),
  };
}

/** The currencies a quote's route plan passes through, when each step is one of the local pools and follows the last. */
function pathOf(currencies: Currencies, plan: AggregatorQuote['routePlan']): Result<string[], DomainError> {
  const path: string[] = [];
  for (const [i, step] of plan.entries()) {
    const from = currencyOfMint(currencies, step.swapInfo.inputMint);
    const to = currencyOfMint(currencies, step.swapInfo.outputMint);
    if (!from || !to || (i > 0 && path[path.length - 1] !== from.code)) {
      return err(domainError('INVALID_INPUT', 'the quote’s route plan is not one of the local pools'));
    }
    if (i === 0) path.push(from.code);
    path.push(to.code);
  }
  if (path.length < 2) return err(domainError('INVALID_INPUT', 'the quote has no route'));
  return ok(path);
}

/**
 * The embedded default aggregator: routes over the project's own pools (direct, or two hops
 * through the third currency when that pays more, e.g. PROJ -> USDC -> SOL), answering in Jupiter's
 * shapes. `swap` reserves every hop's output in the pool book under the request id (like a firm
 * quote) and builds one `transfers` transaction with the user as fee payer, the pool authorities'
 * legs presigned.
 */
export function createLocalAggregator(deps: LocalAggregatorDeps): AggregatorPort {
  const noRoute = (why: string) => domainError('AGGREGATOR_NO_ROUTE', why);

  return {
    name: 'local',
    quote(request) {
      const input = currencyOfMint(deps.currencies, request.inputMint);
      const output = currencyOfMint(deps.currencies, request.outputMint);
      if (!input || !output)
        return errAsync(noRoute('token not tradable on the local pools (TOKEN_NOT_TRADABLE)'));
      if (input === output)
        return errAsync(noRoute('input and output must differ (CIRCULAR_ARBITRAGE_IS_DISABLED)'));
      return loadPools(deps).andThen((pools) =>
        bestRoute(deps, pools, { input, output }, request.amount, request.slippageBps)
          .mapErr((e: DomainError) =>
            e.code === 'INSUFFICIENT_LIQUIDITY' ? noRoute(`no route: ${e.message}`) : e,
          )
          .map((route: PricedRoute) => toQuote(deps.currencies, route, request.amount, request.slippageBps)),
      );
    },
    swap(request): ResultAsync<AggregatorSwap, DomainError> {
      const planned = pathOf(deps.currencies, request.quote.routePlan);
      if (planned.isErr()) return errAsync(planned.error);
      const path = planned.value;
      const now = deps.clock.now();
      return reserveAndBuild(deps, {
        request: {
          requestId: request.requestId,
          source: 'aggregator',
          provider: 'local',
          clientId: request.clientId,
          user: request.userPublicKey,
          inputToken: path[0]!,
          outputToken: path[path.length - 1]!,
          inAmount: request.quote.inAmount,
          slippageBps: request.quote.slippageBps,
          expiresAt: new Date(now.getTime() + deps.swapPolicies.quoteTtlMs),
        },
        path,
        feePayer: 'user',
        minOutAmount: request.quote.otherAmountThreshold,
      }).andThen((built) =>
        okAsync<AggregatorSwap, DomainError>({
          swapTransaction: built.wire,
          lastValidBlockHeight: built.transaction.lastValidBlockHeight,
          prioritizationFeeLamports:
            built.transaction.feeLamports - 5_000n * BigInt(built.transaction.signers.length),
          computeUnitLimit: built.transaction.computeUnitLimit,
          quote: toQuote(deps.currencies, built.request, request.quote.inAmount, request.quote.slippageBps),
          recorded: true,
        }),
      );
    },
  };
}
