import { describe, expect, it } from 'vitest';
import type { Signature } from '../../domain/public-key.js';
import { createTestSwapDeps } from '../../testing/index.js';
import { projectSwap } from './firm-quote.js';
import { caller, signAndExecute, withUser } from './test-support.js';
import { parseCompletionPayload, transactionComplete } from './transaction-complete.js';

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
    for (const built of [a, b]) await signAndExecute(t, user, built);
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
