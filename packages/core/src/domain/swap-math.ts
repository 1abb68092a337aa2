/**
 * Constant-product pricing. Every division rounds toward the pool: the trader receives the floor
 * of the exact output and pays the ceiling of the exact input, so k = x*y never decreases.
 */

export const BPS = 10_000n;

export interface PoolReserves {
  /** Units of the input token the pool holds. */
  readonly reserveIn: bigint;
  /** Units of the output token the pool can pay out (held minus reserved for pending quotes). */
  readonly reserveOut: bigint;
  readonly feeBps: number;
}

export interface SwapQuoteMath {
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  /** The part of inAmount kept as the fee (stays in the pool). */
  readonly feeAmount: bigint;
  /** Price impact against the spot price, in parts per million. */
  readonly priceImpactPpm: bigint;
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** Output for an exact input: out = floor(rOut * inAfterFee / (rIn + inAfterFee)). */
export function quoteExactIn(pool: PoolReserves, inAmount: bigint): SwapQuoteMath | undefined {
  if (inAmount <= 0n || pool.reserveIn <= 0n || pool.reserveOut <= 0n) return undefined;
  const fee = BigInt(pool.feeBps);
  if (fee < 0n || fee >= BPS) return undefined;
  // The fee is taken from the input, rounded up so the pool never under-collects.
  const feeAmount = ceilDiv(inAmount * fee, BPS);
  const inAfterFee = inAmount - feeAmount;
  if (inAfterFee <= 0n) return undefined;
  const outAmount = (pool.reserveOut * inAfterFee) / (pool.reserveIn + inAfterFee);
  if (outAmount <= 0n || outAmount >= pool.reserveOut) return undefined;
  // Spot output without impact = inAfterFee * rOut / rIn; impact = 1 - out/spot, in ppm.
  const spotOut = (inAfterFee * pool.reserveOut) / pool.reserveIn;
  const priceImpactPpm = spotOut === 0n ? 0n : ((spotOut - outAmount) * 1_000_000n) / spotOut;
  return { inAmount, outAmount, feeAmount, priceImpactPpm };
}

/** Minimum acceptable output after slippage, rounded down (the trader's tolerance). */
export function minOutWithSlippage(outAmount: bigint, slippageBps: number): bigint {
  return (outAmount * (BPS - BigInt(slippageBps))) / BPS;
}

/** Reserves after a swap lands: the whole input (fee included) joins the pool. */
export function applySwap(
  pool: PoolReserves,
  quote: Pick<SwapQuoteMath, 'inAmount' | 'outAmount'>,
): PoolReserves {
  return {
    ...pool,
    reserveIn: pool.reserveIn + quote.inAmount,
    reserveOut: pool.reserveOut - quote.outAmount,
  };
}

/** Spot price of the input token in output units, as a decimal string with `digits` places. */
export function spotPrice(
  reserveIn: bigint,
  decimalsIn: number,
  reserveOut: bigint,
  decimalsOut: number,
  digits = 9,
): string {
  if (reserveIn === 0n) return '0';
  const scale = 10n ** BigInt(digits);
  const num = reserveOut * 10n ** BigInt(decimalsIn) * scale;
  const den = reserveIn * 10n ** BigInt(decimalsOut);
  const v = num / den;
  const whole = v / scale;
  const frac = (v % scale).toString().padStart(digits, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : `${whole}`;
}

/** ppm as a percent string, e.g. 12345 ppm -> "1.2345". */
export function ppmToPercent(ppm: bigint): string {
  const whole = ppm / 10_000n;
  const frac = (ppm % 10_000n).toString().padStart(4, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : `${whole}`;
}
