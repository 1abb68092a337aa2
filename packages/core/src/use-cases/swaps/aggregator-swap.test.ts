import { describe, expect, it } from 'vitest';
import { createFakeAggregator, createTestSwapDeps } from '../../testing/index.js';
import { aggregatorSwap } from './aggregator-swap.js';
import { caller, withUser } from './test-support.js';

describe('aggregator swap through the port', () => {
  it('asks the port in Jupiter terms (wrapped SOL mint, base units) and passes its errors through', async () => {
    const t = await createTestSwapDeps();
    const user = await withUser(t);
    const agg = createFakeAggregator({
      quotes: [
        {
          code: 'AGGREGATOR_NO_ROUTE',
          message: 'aggregator: Could not find any route (COULD_NOT_FIND_ANY_ROUTE)',
        },
      ],
    });
    const e = (
      await aggregatorSwap(
        { ...t.swapDeps, aggregator: agg },
        { tokenPair: 'SOL-USDC', amount: '1' },
        caller(user),
      )
    )._unsafeUnwrapErr();
    expect(e.code).toBe('AGGREGATOR_NO_ROUTE');
    expect(agg.calls[0]).toMatchObject({
      method: 'quote',
      request: {
        inputMint: 'So11111111111111111111111111111111111111112',
        amount: 1_000_000_000n,
        slippageBps: 50,
      },
    });
  });
});
