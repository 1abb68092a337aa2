import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from '../../domain/wire.js';
import { createTestSwapDeps } from '../../testing/index.js';
import { executeSwap } from './execute.js';
import { projectSwap } from './firm-quote.js';
import { caller, walletSigns, withUser } from './test-support.js';

describe('executeSwap', () => {
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
});
