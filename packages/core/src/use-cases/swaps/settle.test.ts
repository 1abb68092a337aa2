import { describe, expect, it } from 'vitest';
import { createTestSwapDeps } from '../../testing/index.js';
import { projectSwap } from './firm-quote.js';
import { settleSwaps } from './settle.js';
import { caller, withUser } from './test-support.js';

describe('unexecuted firm quotes', () => {
  it('cost the settlement pass nothing inside their blockhash window, and are released after it', async () => {
    const t = await createTestSwapDeps();
    const user = await withUser(t);
    for (let i = 0; i < 10; i++)
      (
        await projectSwap(t.swapDeps, { tokenPair: 'SOL-USDC', amount: `0.0${i + 1}` }, caller(user))
      )._unsafeUnwrap();
    const held = (await t.swaps.getPool('SOL-USDC'))._unsafeUnwrap()!.reservedB;
    expect(held).toBeGreaterThan(0n);
    expect((await settleSwaps(t.swapDeps))._unsafeUnwrap()).toEqual({ open: 0, settled: 0 });
    t.chain.advance(200);
    expect((await settleSwaps(t.swapDeps))._unsafeUnwrap()).toEqual({ open: 10, settled: 10 });
    expect((await t.swaps.getPool('SOL-USDC'))._unsafeUnwrap()!.reservedB).toBe(0n);
  });
});
