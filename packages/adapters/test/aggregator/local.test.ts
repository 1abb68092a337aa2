import {
  aggregatorSwap,
  assembleTransaction,
  executeSwap,
  type PublicKey,
  settleSwaps,
  splitWireTransaction,
  sweepUnsettled,
  toBase64,
} from '@token-actions/core';
import { createTestSwapDeps } from '@token-actions/core/testing';
import { describe, expect, it } from 'vitest';
import { createLocalAggregator } from '../../src/aggregator/index.js';

describe('local aggregator over the project pools', () => {
  it('routes PROJ -> USDC -> SOL when the two hops pay more than the direct pool, reserving every hop', async () => {
    // The direct SOL-PROJ pool prices PROJ at half what the USDC route pays.
    const t = await createTestSwapDeps({
      seeds: [
        {
          tokenA: 'SOL',
          tokenB: 'USDC',
          reserveA: 1_000_000_000_000n,
          reserveB: 150_000_000_000n,
          feeBps: 30,
        },
        {
          tokenA: 'SOL',
          tokenB: 'PROJ',
          reserveA: 1_000_000_000_000n,
          reserveB: 2_000_000_000_000_000n,
          feeBps: 30,
        },
        {
          tokenA: 'USDC',
          tokenB: 'PROJ',
          reserveA: 150_000_000_000n,
          reserveB: 1_000_000_000_000_000n,
          feeBps: 30,
        },
      ],
      aggregator: (deps) => createLocalAggregator(deps),
    });
    const user = (await t.keystore.create())._unsafeUnwrap();
    t.chain.credit(user, t.chain.currencies.native, 1_000_000_000n);
    t.chain.credit(user, t.chain.currencies.project, 1_000_000_000_000n);
    const out = (
      await aggregatorSwap(
        t.swapDeps,
        { tokenPair: 'PROJ-SOL', amount: '1000' },
        { subject: user, clientId: 'c' },
      )
    )._unsafeUnwrap();
    expect(out.quote.routePlan.map((s) => s.swapInfo.ammKey)).toEqual(['USDC-PROJ', 'SOL-USDC']);
    const [hop1, hop2] = out.request.hops;
    expect((await t.swaps.getPool('USDC-PROJ'))._unsafeUnwrap()!.reservedA).toBe(hop1!.outAmount);
    expect((await t.swaps.getPool('SOL-USDC'))._unsafeUnwrap()!.reservedA).toBe(hop2!.outAmount);
    // The user pays the fee and signs first; both pool authorities presigned.
    const signers = out.request.transaction!.signers as PublicKey[];
    expect(signers[0]).toBe(user);
    expect(signers).toHaveLength(3);
    const parts = splitWireTransaction(out.transaction)!;
    const sig = (await t.keystore.sign(user, parts.message))._unsafeUnwrap();
    const signed = toBase64(assembleTransaction(parts.message, [sig, ...parts.signatures.slice(1)]));
    const before = (await t.chain.getBalance(user, t.chain.currencies.native))._unsafeUnwrap();
    const exec = (
      await executeSwap(
        t.swapDeps,
        { requestId: out.requestId, signedTransaction: signed },
        { clientId: 'c' },
      )
    )._unsafeUnwrap();
    const after = (await t.chain.getBalance(user, t.chain.currencies.native))._unsafeUnwrap();
    expect(after - before).toBe(hop2!.outAmount - out.request.transaction!.feeLamports);
    t.chain.advance(40);
    (await sweepUnsettled(t.deps))._unsafeUnwrap();
    expect((await settleSwaps(t.swapDeps))._unsafeUnwrap().settled).toBe(1);
    const usdcProj = (await t.swaps.getPool('USDC-PROJ'))._unsafeUnwrap()!;
    expect(usdcProj).toMatchObject({ reservedA: 0n, reserveB: 1_000_000_000_000_000n + 1_000_000_000_000n });
    expect(exec.transactionId).toBe(out.request.transactionId ?? exec.transactionId);
  });

  it('quotes the direct pool when it pays more, and refuses unknown mints like Jupiter does', async () => {
    const t = await createTestSwapDeps({ aggregator: (deps) => createLocalAggregator(deps) });
    const agg = t.swapDeps.aggregator;
    const q = (
      await agg.quote({
        inputMint: t.chain.currencies.project.mint!,
        outputMint: 'So11111111111111111111111111111111111111112',
        amount: 10n ** 12n,
        slippageBps: 50,
      })
    )._unsafeUnwrap();
    expect(q.routePlan).toHaveLength(1);
    const e = (
      await agg.quote({
        inputMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
        outputMint: t.chain.currencies.project.mint!,
        amount: 1n,
        slippageBps: 50,
      })
    )._unsafeUnwrapErr();
    expect(e.code).toBe('AGGREGATOR_NO_ROUTE');
  });
});
