import fc from 'fast-check';
import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { PublicKey, Signature } from '../domain/public-key.js';
import { splitWireTransaction } from '../domain/signed-transaction.js';
import { assembleTransaction, fromBase64, toBase64 } from '../domain/wire.js';
import { domainError } from '../errors.js';
import {
  aggregatorSwap,
  deliverWebhooks,
  executeSwap,
  notifySwaps,
  parseCompletionPayload,
  projectSwap,
  settleSwaps,
  swapInfo,
  sweepUnsettled,
  transactionComplete,
} from '../index.js';
import { createFakeAggregator, createTestSwapDeps, type TestSwapDeps } from '../testing/index.js';
import type { PoolSeed } from './swaps/pools.js';
import { retryDelayMs } from './webhooks/delivery.js';

const caller = (subject: PublicKey) => ({ subject, clientId: 'client-1' });

async function withUser(t: TestSwapDeps, sol = 100_000_000_000n, usdc = 10_000_000_000n) {
  const user = (await t.keystore.create())._unsafeUnwrap();
  t.chain.credit(user, t.chain.currencies.native, sol);
  t.chain.credit(user, t.chain.currencies.stable, usdc);
  return user;
}

/** What a wallet does: sign the message of the returned transaction into its own slot. */
async function walletSigns(
  t: TestSwapDeps,
  user: PublicKey,
  wire: Uint8Array,
  signers: readonly PublicKey[],
) {
  const parts = splitWireTransaction(wire)!;
  const sigs = [...parts.signatures];
  const mine = (await t.keystore.sign(user, parts.message))._unsafeUnwrap();
  sigs[signers.indexOf(user)] = mine;
  return toBase64(assembleTransaction(parts.message, sigs));
}

/** A firm quote for `amount` SOL of USDC, signed by the wallet and executed. */
async function swapAndExecute(t: TestSwapDeps, user: PublicKey, amount: string) {
  const built = (
    await projectSwap(t.swapDeps, { tokenPair: 'SOL-USDC', amount }, caller(user))
  )._unsafeUnwrap();
  const signed = await walletSigns(t, user, built.wire, built.transaction.signers);
  (
    await executeSwap(
      t.swapDeps,
      { requestId: built.request.requestId, signedTransaction: signed },
      caller(user),
    )
  )._unsafeUnwrap();
  return built;
}

const balance = async (t: TestSwapDeps, who: PublicKey, code: string) =>
  (await t.chain.getBalance(who, t.chain.currencies.byCode(code)!))._unsafeUnwrap();

async function settleAll(t: TestSwapDeps) {
  t.chain.advance(40);
  (await sweepUnsettled(t.deps))._unsafeUnwrap();
  return (await settleSwaps(t.swapDeps))._unsafeUnwrap();
}

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

  it('refuses a transaction whose message differs, a bad signature, and an expired quote; sends nothing', async () => {
    const t = await createTestSwapDeps();
    const user = await withUser(t);
    const built = (
      await projectSwap(t.swapDeps, { tokenPair: 'USDC-SOL', amount: '10' }, caller(user))
    )._unsafeUnwrap();
    const executed = t.chain.executedCount();
    const signed = fromBase64(await walletSigns(t, user, built.wire, built.transaction.signers))!;
    const tampered = new Uint8Array(signed);
    tampered[tampered.length - 3] ^= 1;
    const e1 = (
      await executeSwap(
        t.swapDeps,
        { requestId: built.request.requestId, signedTransaction: toBase64(tampered) },
        caller(user),
      )
    )._unsafeUnwrapErr();
    expect(e1).toMatchObject({
      code: 'TRANSACTION_MISMATCH',
      message: 'transaction differs from the prepared one',
    });
    const badSig = new Uint8Array(signed);
    badSig[1 + 64 + 5] ^= 1;
    const e2 = (
      await executeSwap(
        t.swapDeps,
        { requestId: built.request.requestId, signedTransaction: toBase64(badSig) },
        caller(user),
      )
    )._unsafeUnwrapErr();
    expect(e2.code).toBe('INVALID_SIGNATURE');
    const other = (
      await executeSwap(
        t.swapDeps,
        { requestId: built.request.requestId, signedTransaction: toBase64(signed) },
        { clientId: 'someone-else' },
      )
    )._unsafeUnwrapErr();
    expect(other.code).toBe('SWAP_NOT_FOUND');
    t.chain.advance(200);
    const e3 = (
      await executeSwap(
        t.swapDeps,
        { requestId: built.request.requestId, signedTransaction: toBase64(signed) },
        caller(user),
      )
    )._unsafeUnwrapErr();
    expect(e3.code).toBe('QUOTE_EXPIRED');
    expect(t.chain.executedCount()).toBe(executed);
    expect((await t.swaps.get(built.request.requestId))._unsafeUnwrap()!.status).toBe('expired');
    expect((await t.swaps.getPool('SOL-USDC'))._unsafeUnwrap()!.reservedA).toBe(0n);
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

describe('firm quotes are for the caller and capped per client (issue 11)', () => {
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

describe('swap history pages', () => {
  it('hands out a cursor that reads the next page by keyset, stable while new swaps arrive', async () => {
    const t = await createTestSwapDeps();
    const user = await withUser(t);
    const sent: string[] = [];
    const swapOnce = async (amount: string) => {
      const built = await swapAndExecute(t, user, amount);
      sent.unshift(built.request.requestId);
      t.clock.advance(1_000);
    };
    for (let i = 1; i <= 5; i++) await swapOnce(`0.${i}`);
    const ids = (info: { history: { items: readonly { requestId: string }[] } }) =>
      info.history.items.map((r) => r.requestId);
    const first = (await swapInfo(t.swapDeps, { tokenPair: 'SOL-USDC', pageSize: '2' }))._unsafeUnwrap();
    expect(ids(first)).toEqual(sent.slice(0, 2));
    expect(first).toMatchObject({ page: 1, history: { total: 5 } });
    expect(first.nextCursor).toBe(`2.${sent[1]}`);
    const expected = sent.slice(2, 4);
    // A new swap arrives between the pages: offset paging would repeat an item; the cursor does not.
    await swapOnce('0.6');
    const second = (
      await swapInfo(t.swapDeps, { tokenPair: 'SOL-USDC', pageSize: '2', cursor: first.nextCursor! })
    )._unsafeUnwrap();
    expect(ids(second)).toEqual(expected);
    expect(second).toMatchObject({ page: 2, history: { total: 6 } });
    const last = (
      await swapInfo(t.swapDeps, { tokenPair: 'SOL-USDC', pageSize: '2', cursor: second.nextCursor! })
    )._unsafeUnwrap();
    // Page 3 of the state the cursor started from: the oldest swap, and no page after it.
    expect(last.page).toBe(3);
    expect(ids(last)).toEqual([sent.at(-1)]);
    expect(last.nextCursor).toBeUndefined();
    const code = async (q: Record<string, string>) =>
      (await swapInfo(t.swapDeps, { tokenPair: 'SOL-USDC', ...q }))._unsafeUnwrapErr().code;
    expect(await code({ cursor: 'nope' })).toBe('INVALID_PARAMETERS');
    expect(await code({ cursor: `0.${sent[0]}` })).toBe('INVALID_PARAMETERS');
    expect(await code({ cursor: `2.${sent[0]}`, page: '3' })).toBe('INVALID_PARAMETERS');
    expect(
      (await swapInfo(t.swapDeps, { tokenPair: 'SOL-USDC', cursor: `2.${sent[0]}`, page: '2' })).isOk(),
    ).toBe(true);
  });
});

describe('swap information', () => {
  it('answers 400-class for a bad pair and 422-class for bad parameters', async () => {
    const t = await createTestSwapDeps();
    const code = async (q: Record<string, unknown>) =>
      (await swapInfo(t.swapDeps, q))._unsafeUnwrapErr().code;
    expect(await code({ tokenPair: 'SOL-BTC' })).toBe('UNKNOWN_TOKEN_PAIR');
    expect(await code({ tokenPair: 'SOLUSDC' })).toBe('UNKNOWN_TOKEN_PAIR');
    expect(await code({ tokenPair: 'SOL-SOL' })).toBe('UNKNOWN_TOKEN_PAIR');
    // Both refusals name every pair the service trades.
    const every = 'SOL-USDC, SOL-PROJ, USDC-SOL, USDC-PROJ, PROJ-SOL, PROJ-USDC';
    for (const [tokenPair, kind] of [
      ['SOLUSDC', 'is malformed: write two tickers joined by a hyphen, one of'],
      ['SOL-BTC', 'is not supported; use one of'],
    ]) {
      expect((await swapInfo(t.swapDeps, { tokenPair }))._unsafeUnwrapErr().message).toBe(
        `tokenPair "${tokenPair}" ${kind} ${every}`,
      );
    }
    expect(await code({})).toBe('INVALID_PARAMETERS');
    expect(await code({ tokenPair: 'SOL-USDC', page: '0' })).toBe('INVALID_PARAMETERS');
    expect(await code({ tokenPair: 'SOL-USDC', pageSize: '101' })).toBe('INVALID_PARAMETERS');
    expect(await code({ tokenPair: 'SOL-USDC', amount: '-1' })).toBe('INVALID_PARAMETERS');
    expect(await code({ tokenPair: 'SOL-USDC', amount: 'abc' })).toBe('INVALID_PARAMETERS');
    const info = (await swapInfo(t.swapDeps, { tokenPair: 'USDC-SOL', amount: '150' }))._unsafeUnwrap();
    expect(info.pool.id).toBe('SOL-USDC');
    expect(info.quote!.outAmount).toBeGreaterThan(990_000_000n);
    expect(info).toMatchObject({ page: 1, pageSize: 20, history: { total: 0 } });
  });
});

describe('completion notifications', () => {
  it('reads both payload shapes and refuses anything else', () => {
    expect(parseCompletionPayload({ transactionId: 'x', status: 'finalized' }).isErr()).toBe(true);
    expect(parseCompletionPayload([]).isErr()).toBe(true);
    expect(parseCompletionPayload('hi').isErr()).toBe(true);
  });

  it('re-checks the chain: a lying "finalized" for a failed swap changes nothing; duplicates are ignored', async () => {
    const t = await createTestSwapDeps();
    const user = await withUser(t, 100_000_000_000n, 100_000_000n);
    // Two quotes each spending all 100 USDC: the second lands failed.
    const a = (
      await projectSwap(t.swapDeps, { tokenPair: 'USDC-SOL', amount: '100' }, caller(user))
    )._unsafeUnwrap();
    const b = (
      await projectSwap(t.swapDeps, { tokenPair: 'USDC-SOL', amount: '100' }, caller(user))
    )._unsafeUnwrap();
    for (const built of [a, b]) {
      const signed = await walletSigns(t, user, built.wire, built.transaction.signers);
      (
        await executeSwap(
          t.swapDeps,
          { requestId: built.request.requestId, signedTransaction: signed },
          caller(user),
        )
      )._unsafeUnwrap();
    }
    const failedId = b.transaction.transactionId as Signature;
    const claims = parseCompletionPayload({ transactionId: failedId, status: 'finalized' })._unsafeUnwrap();
    const r1 = (await transactionComplete(t.swapDeps, { webhookId: 'wh_1', claims }))._unsafeUnwrap();
    expect(r1.results[0]).toMatchObject({ claimed: 'finalized', status: 'failed', swapStatus: 'failed' });
    expect((await t.deps.store.transactions.get(failedId))._unsafeUnwrap()!.status).toBe('failed');
    const r2 = (await transactionComplete(t.swapDeps, { webhookId: 'wh_1', claims }))._unsafeUnwrap();
    expect(r2).toEqual({ duplicate: true, results: [] });
    // The failed swap released its reservation; the good one is still reserved until finalized.
    const pool = (await t.swaps.getPool('SOL-USDC'))._unsafeUnwrap()!;
    expect(pool.reservedA).toBe(a.request.outAmount);
  });
});

describe('outbound notifications', () => {
  it('queue a signed delivery per terminal swap and retry with growing, jittered delays', async () => {
    const t = await createTestSwapDeps({ senderStatuses: [500, 503, 500, 200] });
    await t.oauth.clients.upsert({
      id: 'client-1',
      name: 'c',
      type: 'public',
      redirectUris: ['http://127.0.0.1/cb'],
      scopes: ['read', 'write'],
      webhookUrl: 'http://127.0.0.1:9/hook',
      createdAt: new Date(),
    });
    const user = await withUser(t);
    const built = await swapAndExecute(t, user, '1');
    await settleAll(t);
    expect((await notifySwaps(t.swapDeps))._unsafeUnwrap()).toEqual({ queued: 1 });
    expect((await notifySwaps(t.swapDeps))._unsafeUnwrap()).toEqual({ queued: 0 });
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      const pass = (await deliverWebhooks(t.swapDeps))._unsafeUnwrap();
      expect(pass.delivered + pass.retrying).toBe(1);
      const d = t.webhookStore.list()[0]!;
      if (d.status === 'pending') {
        delays.push(d.nextAttemptAt.getTime() - t.clock.now().getTime());
        t.clock.advance(d.nextAttemptAt.getTime() - t.clock.now().getTime());
      }
    }
    expect(delays).toEqual([750, 1_500, 3_000]);
    const d = t.webhookStore.list()[0]!;
    expect(d).toMatchObject({ status: 'delivered', attempts: 4 });
    expect(t.sender.sent.map((s) => s.id)).toEqual(Array(4).fill(d.id));
    expect(JSON.parse(t.sender.sent[0]!.payload)).toMatchObject({
      type: 'swap.landed',
      data: {
        requestId: built.request.requestId,
        transactionId: built.transaction.transactionId,
        transactionStatus: 'finalized',
      },
    });
    expect(retryDelayMs({ webhookRetryBaseMs: 1000, webhookRetryMaxMs: 5000 }, 10, () => 1)).toBe(5000);
  });
});

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
