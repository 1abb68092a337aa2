import type { PublicKey } from '@token-actions/core';
import { createFakeChain } from '@token-actions/core/testing';
import { describe, expect, it } from 'vitest';
import { createFeeOracle } from '../../src/fees/index.js';
import { newKey } from './keys.js';

const price = async (
  oracle: ReturnType<typeof createFeeOracle>,
  level: Parameters<ReturnType<typeof createFeeOracle>['computeUnitPrice']>[0],
  accounts: readonly PublicKey[],
) => (await oracle.computeUnitPrice(level, accounts))._unsafeUnwrap();

describe('createFeeOracle', () => {
  // 20 slots each with one landed transaction on `hot`, paying 100, 200, ..., 2000.
  function chainWithFees() {
    const chain = createFakeChain();
    const hot = newKey().address;
    for (let i = 1; i <= 20; i++) {
      chain.advance(1);
      chain.recordPrioritizationFee(BigInt(i) * 100n, [hot]);
    }
    return { chain, hot };
  }

  it('prices each level at its percentile of recent fees for the accounts', async () => {
    const { chain, hot } = chainWithFees();
    // The fake's window also holds the genesis slot, which saw no transaction (fee 0): 21 values.
    const oracle = createFeeOracle({ chain });
    expect(await price(oracle, 'Min', [hot])).toBe(0n);
    expect(await price(oracle, 'Low', [hot])).toBe(500n);
    expect(await price(oracle, 'Medium', [hot])).toBe(1_000n);
    expect(await price(oracle, 'High', [hot])).toBe(1_500n);
    expect(await price(oracle, 'VeryHigh', [hot])).toBe(1_900n);
  });

  it('applies floors, then the cap', async () => {
    const { chain, hot } = chainWithFees();
    const oracle = createFeeOracle({ chain, floors: { Min: 50n, Low: 10_000n }, capMicroLamports: 1_200n });
    expect(await price(oracle, 'Min', [hot])).toBe(50n);
    expect(await price(oracle, 'Low', [hot])).toBe(1_200n);
    expect(await price(oracle, 'Medium', [hot])).toBe(1_000n);
    expect(await price(oracle, 'VeryHigh', [hot])).toBe(1_200n);
  });

  it('prices at the floor (0 by default) when nothing touched the accounts', async () => {
    const chain = createFakeChain();
    const oracle = createFeeOracle({ chain, floors: { Medium: 1_000n } });
    expect(await price(oracle, 'High', [newKey().address])).toBe(0n);
    expect(await price(oracle, 'Medium', [newKey().address])).toBe(1_000n);
  });

  it('caches recent fees per account set for cacheMs', async () => {
    const { chain, hot } = chainWithFees();
    let now = 0;
    let calls = 0;
    const counting = {
      getRecentPrioritizationFees: (accounts: readonly PublicKey[]) => {
        calls += 1;
        return chain.getRecentPrioritizationFees(accounts);
      },
    };
    const oracle = createFeeOracle({ chain: counting, cacheMs: 1_000, now: () => now });
    const other = newKey().address;
    await price(oracle, 'Medium', [hot, other]);
    await price(oracle, 'High', [other, hot, hot]);
    await Promise.all([price(oracle, 'Low', [hot]), price(oracle, 'Low', [hot])]);
    expect(calls).toBe(2);

    chain.advance(1);
    chain.recordPrioritizationFee(1_000_000n, [hot]);
    expect(await price(oracle, 'VeryHigh', [hot])).toBe(1_900n);
    now = 1_000;
    expect(await price(oracle, 'VeryHigh', [hot])).toBe(2_000n);
    expect(calls).toBe(3);
  });

  it('passes a chain failure through and does not cache it', async () => {
    const { chain, hot } = chainWithFees();
    const oracle = createFeeOracle({ chain });
    chain.setUnavailable(true);
    expect((await oracle.computeUnitPrice('Medium', [hot]))._unsafeUnwrapErr().code).toBe(
      'CHAIN_UNAVAILABLE',
    );
    chain.setUnavailable(false);
    expect(await price(oracle, 'Medium', [hot])).toBe(1_000n);
  });
});
