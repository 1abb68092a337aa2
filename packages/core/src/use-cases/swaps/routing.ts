import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import { minOutWithSlippage, quoteExactIn } from '../../domain/swap-math.js';
import { poolIdOf, type TokenPair } from '../../domain/token-pair.js';
import { type DomainError, domainError } from '../../errors.js';
import type { PoolRecord, ReservationPlan, SwapHop } from '../../ports/swap-store.js';
import type { SwapDeps } from './deps.js';

// Routing over the project's pools: pricing a path hop by hop on what each pool can still promise,
// and choosing the path that pays the most. The indicative quote, the firm quote and the embedded
// aggregator all price through here, so a quote and the reservation behind it agree.

/** The two sides of a pool seen from a trader selling `inputToken`. */
export function poolSides(pool: PoolRecord, inputToken: string) {
  const inIsA = pool.tokenA === inputToken;
  return {
    reserveIn: inIsA ? pool.reserveA : pool.reserveB,
    reserveOut: inIsA ? pool.reserveB : pool.reserveA,
    reservedOut: inIsA ? pool.reservedB : pool.reservedA,
    outputToken: inIsA ? pool.tokenB : pool.tokenA,
  };
}

export interface PricedRoute extends ReservationPlan {
  readonly path: readonly string[];
}

/**
 * Prices `amount` of `path[0]` along `path` (tokens) over `pools`, each hop on the pool's
 * available output (reserve - reserved) so pending firm quotes are honoured first. `vaults` caps
 * each hop by what its vault holds on chain beyond what is already reserved.
 */
export function priceRoute(
  pools: ReadonlyMap<string, PoolRecord>,
  poolIdFor: (a: string, b: string) => string,
  path: readonly string[],
  amount: bigint,
  slippageBps: number,
  vaults?: ReadonlyMap<string, bigint>,
): Result<PricedRoute, DomainError> {
  const hops: SwapHop[] = [];
  let carried = amount;
  let keptPpm = 1_000_000n;
  for (let i = 0; i + 1 < path.length; i++) {
    const inputToken = path[i]!;
    const outputToken = path[i + 1]!;
    const id = poolIdFor(inputToken, outputToken);
    const pool = pools.get(id);
    if (!pool) return err(domainError('INSUFFICIENT_LIQUIDITY', `pool ${id} is not available`));
    const sides = poolSides(pool, inputToken);
    const available = sides.reserveOut - sides.reservedOut;
    const q =
      available > 0n
        ? quoteExactIn({ reserveIn: sides.reserveIn, reserveOut: available, feeBps: pool.feeBps }, carried)
        : undefined;
    if (!q) {
      return err(
        domainError(
          'INSUFFICIENT_LIQUIDITY',
          `pool ${id} cannot honour this swap: the amount is too small or its free ${outputToken} liquidity is exhausted`,
        ),
      );
    }
    const vault = vaults?.get(id);
    if (vault !== undefined && sides.reservedOut + q.outAmount > vault) {
      return err(
        domainError(
          'INSUFFICIENT_LIQUIDITY',
          `pool ${id} cannot promise more ${outputToken} than its vault holds; retry later`,
        ),
      );
    }
    hops.push({
      pool: id,
      inputToken,
      outputToken,
      inAmount: carried,
      outAmount: q.outAmount,
      feeAmount: q.feeAmount,
    });
    keptPpm = (keptPpm * (1_000_000n - q.priceImpactPpm)) / 1_000_000n;
    carried = q.outAmount;
  }
  const outAmount = carried;
  return ok({
    path,
    hops,
    outAmount,
    minOutAmount: minOutWithSlippage(outAmount, slippageBps),
    feeAmount: hops[0]?.feeAmount ?? 0n,
    priceImpactPpm: 1_000_000n - keptPpm,
  });
}

/** The direct path and, through the third currency, the two-hop one. */
export function candidatePaths(deps: Pick<SwapDeps, 'currencies'>, pair: TokenPair): string[][] {
  const mid = deps.currencies.all.find((c) => c !== pair.input && c !== pair.output);
  return [
    [pair.input.code, pair.output.code],
    ...(mid ? [[pair.input.code, mid.code, pair.output.code]] : []),
  ];
}

export function poolIdResolver(deps: Pick<SwapDeps, 'currencies'>) {
  return (a: string, b: string) =>
    poolIdOf(deps.currencies, deps.currencies.byCode(a)!, deps.currencies.byCode(b)!);
}

/** Picks the path that pays the most; the direct pool when it ties. */
export function bestRoute(
  deps: Pick<SwapDeps, 'currencies'>,
  pools: ReadonlyMap<string, PoolRecord>,
  pair: TokenPair,
  amount: bigint,
  slippageBps: number,
): Result<PricedRoute, DomainError> {
  const resolve = poolIdResolver(deps);
  const priced = candidatePaths(deps, pair).map((path) =>
    priceRoute(pools, resolve, path, amount, slippageBps),
  );
  const good = priced.filter((r) => r.isOk()).map((r) => r._unsafeUnwrap());
  if (good.length === 0) return priced[0]!;
  return ok(good.reduce((best, r) => (r.outAmount > best.outAmount ? r : best)));
}

export function loadPools(deps: Pick<SwapDeps, 'swaps'>): ResultAsync<Map<string, PoolRecord>, DomainError> {
  return deps.swaps.listPools().map((pools) => new Map(pools.map((p) => [p.id, p])));
}
