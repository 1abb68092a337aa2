import { describe, expect, it } from 'vitest';
import { createTestSwapDeps } from '../../testing/index.js';
import { swapInfo } from './swap-info.js';
import { swapAndExecute, withUser } from './test-support.js';

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
