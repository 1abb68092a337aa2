import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applySwap, minOutWithSlippage, ppmToPercent, quoteExactIn, spotPrice } from './swap-math.js';

const reserve = fc.bigInt({ min: 1_000n, max: 10n ** 18n });
const fee = fc.integer({ min: 0, max: 1_000 });

describe('constant-product swap math', () => {
  it('k never decreases', () => {
    fc.assert(
      fc.property(
        reserve,
        reserve,
        fee,
        fc.bigInt({ min: 1n, max: 10n ** 18n }),
        (rIn, rOut, feeBps, amount) => {
          const q = quoteExactIn({ reserveIn: rIn, reserveOut: rOut, feeBps }, amount);
          if (!q) return;
          const after = applySwap({ reserveIn: rIn, reserveOut: rOut, feeBps }, q);
          expect(after.reserveIn * after.reserveOut >= rIn * rOut).toBe(true);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('rounds in the pool’s favour: output never exceeds the exact real-valued output', () => {
    fc.assert(
      fc.property(
        reserve,
        reserve,
        fee,
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        (rIn, rOut, feeBps, amount) => {
          const q = quoteExactIn({ reserveIn: rIn, reserveOut: rOut, feeBps }, amount);
          if (!q) return;
          const inAfterFee = amount - q.feeAmount;
          // out <= rOut*inAfterFee/(rIn+inAfterFee)  <=>  out*(rIn+inAfterFee) <= rOut*inAfterFee
          expect(q.outAmount * (rIn + inAfterFee) <= rOut * inAfterFee).toBe(true);
          // and the fee collected is at least the exact fee
          expect(q.feeAmount * 10_000n >= amount * BigInt(feeBps)).toBe(true);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('output never reaches the reserves', () => {
    fc.assert(
      fc.property(
        reserve,
        reserve,
        fee,
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        (rIn, rOut, feeBps, amount) => {
          const q = quoteExactIn({ reserveIn: rIn, reserveOut: rOut, feeBps }, amount);
          if (q) expect(q.outAmount < rOut && q.outAmount > 0n).toBe(true);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('refuses empty pools, zero input and a fee of 100%', () => {
    expect(quoteExactIn({ reserveIn: 0n, reserveOut: 10n, feeBps: 30 }, 5n)).toBeUndefined();
    expect(quoteExactIn({ reserveIn: 10n, reserveOut: 10n, feeBps: 30 }, 0n)).toBeUndefined();
    expect(quoteExactIn({ reserveIn: 10n, reserveOut: 10n, feeBps: 10_000 }, 5n)).toBeUndefined();
  });

  it('matches a worked example', () => {
    // 1,000 SOL : 150,000 USDC pool, 0.3% fee, swap 1 SOL.
    const q = quoteExactIn(
      { reserveIn: 1_000_000_000_000n, reserveOut: 150_000_000_000n, feeBps: 30 },
      1_000_000_000n,
    )!;
    expect(q.feeAmount).toBe(3_000_000n);
    expect(q.outAmount).toBe(149_401_047n); // 150e9 * 997e6 / (1e12 + 997e6) = 149.401047 USDC
    expect(ppmToPercent(q.priceImpactPpm)).toBe('0.0996');
    expect(minOutWithSlippage(q.outAmount, 50)).toBe(148_654_041n);
    expect(spotPrice(1_000_000_000_000n, 9, 150_000_000_000n, 6)).toBe('150');
  });
});
