import { describe, expect, it } from 'vitest';
import type { Signature } from '../../domain/public-key.js';
import { createTestDeps } from '../../testing/index.js';
import { donate } from './donate.js';
import { AS_DEFAULT, balance, setup } from './test-support.js';

describe('donate', () => {
  it('moves exactly the amount from the sender to the treasury and records it before sending', async () => {
    const t = await setup();
    const out = (
      await donate(
        t.deps,
        { currency: 'USDC', account: t.sender, amount: '12.5', priority: 'High' },
        AS_DEFAULT,
      )
    )._unsafeUnwrap();
    expect(out.message).toBe(`Donation of 12.5 USDC from ${t.sender} submitted`);
    expect(await balance(t, t.sender, 'USDC')).toBe(987_500_000n);
    expect(await balance(t, t.deps.accounts.treasury, 'USDC')).toBe(12_500_000n);
    const record = (await t.store.transactions.get(out.transactionId as Signature))._unsafeUnwrap();
    expect(record).toMatchObject({
      kind: 'donation',
      status: 'pending',
      amount: 12_500_000n,
      priority: 'High',
      currency: 'USDC',
    });
  });

  it('refuses an account the service does not hold', async () => {
    const t = await setup();
    const stranger = (await createTestDeps()).deps.accounts.treasury;
    const e = (
      await donate(t.deps, { currency: 'SOL', account: stranger, amount: '1', priority: 'Low' }, AS_DEFAULT)
    )._unsafeUnwrapErr();
    expect(e.code).toBe('UNKNOWN_ACCOUNT');
  });

  it('reports insufficient funds without recording anything', async () => {
    const t = await setup();
    const e = (
      await donate(
        t.deps,
        { currency: 'USDC', account: t.sender, amount: '5000', priority: 'Low' },
        AS_DEFAULT,
      )
    )._unsafeUnwrapErr();
    expect(e.code).toBe('INSUFFICIENT_FUNDS');
    expect((await t.store.transactions.listUnsettled(10))._unsafeUnwrap()).toHaveLength(0);
  });

  it('surfaces an unavailable chain as CHAIN_UNAVAILABLE and records nothing', async () => {
    const t = await setup();
    t.chain.setUnavailable(true);
    const e = await donate(
      t.deps,
      { currency: 'SOL', account: t.sender, amount: '1', priority: 'Min' },
      AS_DEFAULT,
    );
    expect(e._unsafeUnwrapErr().code).toBe('CHAIN_UNAVAILABLE');
    t.chain.setUnavailable(false);
    expect((await t.store.transactions.listUnsettled(10))._unsafeUnwrap()).toHaveLength(0);
  });
});
