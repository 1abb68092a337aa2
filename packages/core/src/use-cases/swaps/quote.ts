import type { Result } from 'neverthrow';
import type { TokenPair } from '../../domain/token-pair.js';
import { type DomainError, domainError } from '../../errors.js';
import type { PoolRecord } from '../../ports/swap-store.js';
import type { SwapDeps } from './deps.js';
import { type PricedRoute, poolIdResolver, priceRoute } from './routing.js';

/** An indicative quote: what `amount` would fetch now, at the default slippage. */
export interface IndicativeQuote extends PricedRoute {
  readonly slippageBps: number;
}

/**
 * The indicative quote of GET /project/swap: `amount` of the pair's input priced on the pool's free
 * liquidity (its reserves less what firm quotes already hold), with the default slippage. Nothing
 * is reserved, so a firm quote a moment later may differ. An amount the pool cannot price is a bad
 * parameter of the query (INVALID_PARAMETERS).
 */
export function indicativeQuote(
  deps: Pick<SwapDeps, 'currencies' | 'swapPolicies'>,
  pool: PoolRecord,
  pair: TokenPair,
  amount: bigint,
): Result<IndicativeQuote, DomainError> {
  const slippageBps = deps.swapPolicies.defaultSlippageBps;
  return priceRoute(
    new Map([[pool.id, pool]]),
    poolIdResolver(deps),
    [pair.input.code, pair.output.code],
    amount,
    slippageBps,
  )
    .map((priced) => ({ ...priced, slippageBps }))
    .mapErr((e) => domainError('INVALID_PARAMETERS', e.message));
}
