import fc from 'fast-check';
import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { splitWireTransaction } from '../../domain/signed-transaction.js';
import { domainError } from '../../errors.js';
import { createTestSwapDeps } from '../../testing/index.js';
import { aggregatorSwap } from './aggregator-swap.js';
import { executeSwap } from './execute.js';
import { projectSwap } from './firm-quote.js';
import type { PoolSeed } from './pools.js';
import { settleSwaps } from './settle.js';
import { balance, caller, settleAll, walletSigns, withUser } from './test-support.js';

describe('firm quote from the project pool', () => {
  it('reserves, builds a pool-paid two-leg transaction, executes once, and settles the book exactly', async () => {
    const t = await createTestSwapDeps();
    const user = await withUser(t);
    const pool = await t.authorityOf('SOL-USDC');
    const built = (
      await projectSwap(t.swapDeps, { tokenPair: 'SOL-USDC', amount: '1', slippageBps: 100 }, caller(user))
    )._unsafeUnwrap();
    expect(built.request.outAmount).toBe(149_401_047n); // the worked example of swap-math
    expect(built.request.minOutAmount).toBe(147_907_036n);
    expect(built.transaction.signers).toEqual([pool, user]);
    expect(built.transaction.transactionId).toBeDefined();
    const parts = splitWireTransaction(built.wire)!;
    expect(parts.signatures[1]!.every((b) => b === 0)).toBe(true);
    expect((await t.swaps.getPool('SOL-USDC'))._unsafeUnwrap()!.reservedB).toBe(149_401_047n);

    const before = {
      userSol: await balance(t, user, 'SOL'),
      userUsdc: await balance(t, user, 'USDC'),
      poolSol: await balance(t, pool, 'SOL'),
      poolUsdc: await balance(t, pool, 'USDC'),
    };
    const signed = await walletSigns(t, user, built.wire, built.transaction.signers);
    const executedBefore = t.chain.executedCount();
    const out = (
      await executeSwap(
        t.swapDeps,
        { requestId: built.request.requestId, signedTransaction: signed },
        caller(user),
      )
    )._unsafeUnwrap();
    expect(out.transactionId).toBe(built.transaction.transactionId);
    const again = (
      await executeSwap(
        t.swapDeps,
        { requestId: built.request.requestId, signedTransaction: signed },
        caller(user),
      )
    )._unsafeUnwrap();
    expect(again.transactionId).toBe(out.transactionId);
    expect(t.chain.executedCount()).toBe(executedBefore + 1);
    expect(await balance(t, user, 'SOL')).toBe(before.userSol - 1_000_000_000n);
    expect(await balance(t, user, 'USDC')).toBe(before.userUsdc + 149_401_047n);
    expect(await balance(t, pool, 'USDC')).toBe(before.poolUsdc - 149_401_047n);
    expect(await balance(t, pool, 'SOL')).toBe(
      before.poolSol + 1_000_000_000n - built.transaction.feeLamports,
    );

    expect(await settleAll(t)).toMatchObject({ settled: 1 });
    const book = (await t.swaps.getPool('SOL-USDC'))._unsafeUnwrap()!;
    expect(book.reservedB).toBe(0n);
    expect(book.reserveA).toBe(1_001_000_000_000n);
    expect(book.reserveB).toBe(150_000_000_000n - 149_401_047n);
    expect(t.swaps.settlements(built.request.requestId)).toBe(1);
    expect((await settleSwaps(t.swapDeps))._unsafeUnwrap().settled).toBe(0);
  });

  it('never promises more than the pool holds, however many quotes race', async () => {
    const small: PoolSeed[] = [
      { tokenA: 'SOL', tokenB: 'USDC', reserveA: 10_000_000_000n, reserveB: 1_500_000_000n, feeBps: 30 },
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.bigInt({ min: 1_000n, max: 50_000_000_000n }), { minLength: 1, maxLength: 30 }),
        async (amounts) => {
          const t = await createTestSwapDeps({ seeds: small });
          const user = await withUser(t, 10n ** 15n);
          const results = await Promise.all(
            amounts.map((a) =>
              projectSwap(
                t.swapDeps,
                { tokenPair: 'SOL-USDC', amount: (Number(a) / 1e9).toFixed(9) },
                caller(user),
              ),
            ),
          );
          const ok = results.filter((r) => r.isOk()).map((r) => r._unsafeUnwrap());
          const pool = (await t.swaps.getPool('SOL-USDC'))._unsafeUnwrap()!;
          const promised = ok.reduce((s, b) => s + b.request.outAmount, 0n);
          expect(pool.reservedB).toBe(promised);
          expect(promised).toBeLessThan(pool.reserveB);
          expect(promised).toBeLessThanOrEqual(await balance(t, pool.authority, 'USDC'));
          expect(new Set(ok.map((b) => b.transaction.transactionId)).size).toBe(ok.length);
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe('firm quotes are for the caller and capped per client', () => {
  it("refuses a quote for a wallet that is not the token's subject, and reserves nothing", async () => {
    const t = await createTestSwapDeps();
    const user = await withUser(t);
    const someoneElse = await withUser(t);
    for (const swap of [projectSwap, aggregatorSwap]) {
      const refused = (
        await swap(t.swapDeps, { tokenPair: 'SOL-USDC', amount: '1', account: someoneElse }, caller(user))
      )._unsafeUnwrapErr();
      expect(refused).toMatchObject({
        code: 'ACCOUNT_NOT_CALLER',
        message:
          'account must be the wallet this access token was issued for; leave it out to use that wallet',
      });
    }
    const pool = (await t.swaps.getPool('SOL-USDC'))._unsafeUnwrap()!;
    expect(pool.reservedA + pool.reservedB).toBe(0n);
    // Naming one's own wallet is the same as leaving it out.
    const own = await projectSwap(
      t.swapDeps,
      { tokenPair: 'SOL-USDC', amount: '1', account: user },
      caller(user),
    );
    expect(own._unsafeUnwrap().request.user).toBe(user);
  });

  it('reserves nothing and stores nothing when the transaction cannot be built', async () => {
    const t = await createTestSwapDeps();
    const user = await withUser(t);
    const down = domainError('CHAIN_UNAVAILABLE', 'fee percentiles are unavailable');
    const deps = { ...t.swapDeps, fees: { computeUnitPrice: () => errAsync(down) } };
    const refused = (
      await projectSwap(deps, { tokenPair: 'SOL-USDC', amount: '1' }, caller(user))
    )._unsafeUnwrapErr();
    expect(refused).toEqual(down);
    const pool = (await t.swaps.getPool('SOL-USDC'))._unsafeUnwrap()!;
    expect(pool.reservedA + pool.reservedB).toBe(0n);
    expect((await t.swaps.listOpen(100))._unsafeUnwrap()).toEqual([]);
    // The same quote goes through once the fees can be read again.
    const built = (
      await projectSwap(t.swapDeps, { tokenPair: 'SOL-USDC', amount: '1' }, caller(user))
    )._unsafeUnwrap();
    expect(built.request.transaction).toEqual(built.transaction);
    expect((await t.swaps.get(built.request.requestId))._unsafeUnwrap()?.transaction?.transactionId).toBe(
      built.transaction.transactionId,
    );
  });

  it('holds a client to maxOpenQuotesPerClient unexecuted quotes; expiry frees a slot', async () => {
    const t = await createTestSwapDeps({ policies: { maxOpenQuotesPerClient: 2 } });
    const user = await withUser(t);
    const quote = (clientId = 'client-1') =>
      projectSwap(t.swapDeps, { tokenPair: 'SOL-USDC', amount: '0.1' }, { subject: user, clientId });
    const results = await Promise.all([quote(), quote(), quote()]);
    expect(results.filter((r) => r.isOk())).toHaveLength(2);
    expect(results.find((r) => r.isErr())!._unsafeUnwrapErr().code).toBe('RESERVATION_LIMIT');
    expect((await quote('client-2')).isOk()).toBe(true);
    t.clock.advance(t.swapDeps.swapPolicies.quoteTtlMs + 1);
    expect((await quote()).isOk()).toBe(true);
  });
});
