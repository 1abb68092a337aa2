import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TENANT } from '../../domain/tenant.js';
import { domainError } from '../../errors.js';
import { charityDonate } from './charity-donate.js';
import { settleEscrow } from './escrow.js';
import { merchantPay } from './merchant-pay.js';
import { AS_DEFAULT, balance, setup } from './test-support.js';
import { track } from './track.js';
import { sweepUnsettled } from './tracking.js';

describe('escrow', () => {
  it("answers a re-run of the same request with the first run's transaction and escrow", async () => {
    const t = await setup();
    const merchant = (await t.keystore.create())._unsafeUnwrap();
    const input = { merchant, amount: '100', currency: 'USDC', useEscrow: true, account: t.sender };
    const options = { ...AS_DEFAULT, requestKey: 'order-42' };
    const first = (await merchantPay(t.deps, input, options))._unsafeUnwrap();
    const again = (await merchantPay(t.deps, input, options))._unsafeUnwrap();
    expect(first.escrowId).toMatch(/^esc_/);
    expect(again.transactionId).toBe(first.transactionId);
    expect(again.escrowId).toBe(first.escrowId);
    // One transfer into escrow, not two.
    expect(await balance(t, t.deps.accounts.escrowVault, 'USDC')).toBe(100_000_000n);
    expect(await balance(t, t.sender, 'USDC')).toBe(900_000_000n);
  });

  it('holds funds, releases once, and refuses a second settlement', async () => {
    const t = await setup();
    const merchant = (await t.keystore.create())._unsafeUnwrap();
    const paid = (
      await merchantPay(
        t.deps,
        {
          merchant,
          amount: '100',
          currency: 'USDC',
          useEscrow: true,
          account: t.sender,
        },
        AS_DEFAULT,
      )
    )._unsafeUnwrap();
    expect(paid.escrowId).toMatch(/^esc_/);
    expect(await balance(t, t.deps.accounts.escrowVault, 'USDC')).toBe(100_000_000n);
    t.chain.advance(2);
    const released = (
      await settleEscrow(t.deps, { id: paid.escrowId!, settlement: 'release', tenant: DEFAULT_TENANT })
    )._unsafeUnwrap();
    expect(released.escrow.status).toBe('released');
    expect(await balance(t, merchant, 'USDC')).toBe(100_000_000n);
    const again = (
      await settleEscrow(t.deps, { id: paid.escrowId!, settlement: 'refund', tenant: DEFAULT_TENANT })
    )._unsafeUnwrapErr();
    expect(again.code).toBe('ESCROW_NOT_HELD');
  });

  it('reopens an escrow whose payout expired without landing, so it can be settled again', async () => {
    const t = await setup();
    const merchant = (await t.keystore.create())._unsafeUnwrap();
    const paid = (
      await merchantPay(
        t.deps,
        {
          merchant,
          amount: '40',
          currency: 'USDC',
          useEscrow: true,
          account: t.sender,
        },
        AS_DEFAULT,
      )
    )._unsafeUnwrap();
    t.chain.advance(2);
    const dropping = {
      ...t.deps,
      chain: { ...t.chain, send: () => errAsync(domainError('CHAIN_UNAVAILABLE', 'dropped')) },
    };
    const lost = (
      await settleEscrow(dropping, { id: paid.escrowId!, settlement: 'release', tenant: DEFAULT_TENANT })
    )._unsafeUnwrap();
    expect(lost.escrow.status).toBe('released');
    t.chain.advance(200);
    (await sweepUnsettled(t.deps))._unsafeUnwrap();
    expect(
      (await track(t.deps, { transactionId: lost.transactionId, tenant: DEFAULT_TENANT }))._unsafeUnwrap()
        .status,
    ).toBe('expired');
    expect((await t.store.escrows.get(paid.escrowId!))._unsafeUnwrap()?.status).toBe('held');
    expect(await balance(t, merchant, 'USDC')).toBe(0n);

    const again = (
      await settleEscrow(t.deps, { id: paid.escrowId!, settlement: 'release', tenant: DEFAULT_TENANT })
    )._unsafeUnwrap();
    expect(again.transactionId).not.toBe(lost.transactionId);
    expect(await balance(t, merchant, 'USDC')).toBe(40_000_000n);
  });

  it('will not pay out before the funding transaction is confirmed', async () => {
    const t = await setup();
    const charity = (await t.keystore.create())._unsafeUnwrap();
    const paid = (
      await charityDonate(
        t.deps,
        {
          charity,
          amount: '1',
          currency: 'SOL',
          useEscrow: true,
          account: t.sender,
        },
        AS_DEFAULT,
      )
    )._unsafeUnwrap();
    const e = (
      await settleEscrow(t.deps, { id: paid.escrowId!, settlement: 'release', tenant: DEFAULT_TENANT })
    )._unsafeUnwrapErr();
    expect(e.code).toBe('ESCROW_NOT_HELD');
    expect(e.message).toMatch(/not funded yet/);
  });
});
