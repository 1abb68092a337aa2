import { describe, expect, it } from 'vitest';
import { minOutWithSlippage } from '../../domain/swap-math.js';
import { parseTokenPair } from '../../domain/token-pair.js';
import { createTestSwapDeps } from '../../testing/index.js';
import { indicativeQuote } from './quote.js';
import { swapInfo } from './swap-info.js';

describe('indicative quote', () => {
  it('prices the amount on the pool’s free liquidity at the default slippage, and reserves nothing', async () => {
    const t = await createTestSwapDeps();
    const info = (await swapInfo(t.swapDeps, { tokenPair: 'USDC-SOL', amount: '150' }))._unsafeUnwrap();
    const quote = info.quote!;
    expect(quote.path).toEqual(['USDC', 'SOL']);
    expect(quote.outAmount).toBeGreaterThan(990_000_000n);
    expect(quote.slippageBps).toBe(t.swapDeps.swapPolicies.defaultSlippageBps);
    expect(quote.minOutAmount).toBe(minOutWithSlippage(quote.outAmount, quote.slippageBps));
    const pool = (await t.swaps.getPool('SOL-USDC'))._unsafeUnwrap()!;
    expect(pool.reservedA + pool.reservedB).toBe(0n);
  });

  it('answers INVALID_PARAMETERS for an amount the pool cannot price', async () => {
    const t = await createTestSwapDeps();
    const pool = (await t.swaps.getPool('SOL-USDC'))._unsafeUnwrap()!;
    const pair = parseTokenPair(t.swapDeps.currencies, 'SOL-USDC')._unsafeUnwrap();
    // One lamport is all fee: nothing comes out of the pool for it.
    const refused = indicativeQuote(t.swapDeps, pool, pair, 1n)._unsafeUnwrapErr();
    expect(refused.code).toBe('INVALID_PARAMETERS');
    expect(refused.message).toMatch(/cannot honour this swap: the amount is too small/);
    expect(
      (await swapInfo(t.swapDeps, { tokenPair: 'SOL-USDC', amount: '0.000000001' }))._unsafeUnwrapErr(),
    ).toEqual(refused);
  });
});
