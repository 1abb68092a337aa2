import { describe, expect, it } from 'vitest';
import { encodeBase58 } from '../../domain/base58.js';
import type { PublicKey } from '../../domain/public-key.js';
import { DEFAULT_TENANT_ACCESS, type Tenant, type TenantId } from '../../domain/tenant.js';
import { createTestDeps, type TestDeps } from '../../testing/index.js';
import { createAccount, getBalances, getNft } from './accounts.js';
import { charityDonate } from './charity-donate.js';
import { donate } from './donate.js';
import { getEscrow, settleEscrow } from './escrow.js';
import { merchantPay } from './merchant-pay.js';
import { mint } from './mint.js';
import { preview } from './preview.js';
import { sign } from './sign.js';
import { track } from './track.js';

// Every payments use-case against two tenants at once: what one creates does not exist for the
// other. Kept in one file so the isolation rule reads as one list.

const A: Tenant = { id: 'tenant-a' as TenantId, treasuryPayments: false };

const B: Tenant = { id: 'tenant-b' as TenantId, treasuryPayments: false };

async function setup(): Promise<TestDeps & { alice: PublicKey; bob: PublicKey; charity: PublicKey }> {
  const t = await createTestDeps();
  for (const tenant of [A, B]) (await t.store.tenants.ensure(tenant.id, tenant, new Date()))._unsafeUnwrap();
  const alice = (await createAccount(t.deps, {}, A.id))._unsafeUnwrap().publicKey;
  const bob = (await createAccount(t.deps, {}, B.id))._unsafeUnwrap().publicKey;
  for (const who of [alice, bob]) {
    t.chain.credit(who, t.chain.currencies.native, 10_000_000_000n);
    t.chain.credit(who, t.chain.currencies.stable, 1_000_000_000n);
  }
  const charity = (await t.keystore.create())._unsafeUnwrap();
  return { ...t, alice, bob, charity };
}

describe('tenants: what one tenant creates does not exist for another', () => {
  it('refuses another tenant’s account as sender exactly like an unknown account, and moves nothing', async () => {
    const t = await setup();
    const stranger = (await t.keystore.create('x', 'tenant-c' as TenantId))._unsafeUnwrap();
    const before = await t.chain.getBalance(t.alice, t.chain.currencies.stable);
    const foreign = (
      await donate(
        t.deps,
        { currency: 'USDC', account: t.alice, amount: '1', priority: 'Low' },
        { tenant: B },
      )
    )._unsafeUnwrapErr();
    const unknown = (
      await donate(
        t.deps,
        { currency: 'USDC', account: stranger, amount: '1', priority: 'Low' },
        { tenant: B },
      )
    )._unsafeUnwrapErr();
    expect(foreign.code).toBe('UNKNOWN_ACCOUNT');
    expect(foreign.message.replace(t.alice, 'X')).toBe(unknown.message.replace(stranger, 'X'));
    for (const run of [
      () =>
        merchantPay(
          t.deps,
          { merchant: t.charity, amount: '1', currency: 'USDC', account: t.alice },
          { tenant: B },
        ),
      () =>
        charityDonate(
          t.deps,
          { charity: t.charity, amount: '1', currency: 'USDC', account: t.alice },
          { tenant: B },
        ),
      () =>
        preview(
          t.deps,
          {
            account: t.alice,
            transactionType: 'donation',
            details: { currency: 'USDC', amount: '1', priority: 'Low' },
          },
          B,
        ),
    ]) {
      expect((await run())._unsafeUnwrapErr().code).toBe('UNKNOWN_ACCOUNT');
    }
    expect((await t.chain.getBalance(t.alice, t.chain.currencies.stable))._unsafeUnwrap()).toBe(
      before._unsafeUnwrap(),
    );
  });

  it('refuses the service’s own keys (escrow vault, mint authority) as senders', async () => {
    const t = await setup();
    for (const key of [t.deps.accounts.escrowVault, t.deps.accounts.mintAuthority]) {
      const e = (
        await charityDonate(
          t.deps,
          { charity: t.charity, amount: '0.1', currency: 'SOL', account: key },
          { tenant: DEFAULT_TENANT_ACCESS },
        )
      )._unsafeUnwrapErr();
      expect(e.code).toBe('UNKNOWN_ACCOUNT');
    }
  });

  it('hides transactions, escrows, NFTs and accounts of another tenant', async () => {
    const t = await setup();
    const paid = (
      await merchantPay(
        t.deps,
        { merchant: t.charity, amount: '5', currency: 'USDC', account: t.alice, useEscrow: true },
        { tenant: A },
      )
    )._unsafeUnwrap();
    const minted = (
      await mint(t.deps, { name: 'A', symbol: 'A', uri: 'https://a.example/1.json' }, { tenant: A })
    )._unsafeUnwrap();
    t.chain.advance(40);

    expect(
      (await track(t.deps, { transactionId: paid.transactionId, tenant: A.id }))._unsafeUnwrap().status,
    ).toBe('finalized');
    const hidden = (
      await track(t.deps, { transactionId: paid.transactionId, tenant: B.id })
    )._unsafeUnwrapErr();
    expect(hidden.code).toBe('TRANSACTION_NOT_FOUND');
    expect(hidden.message).toBe(
      `transaction ${paid.transactionId} is not known to this service or the chain`,
    );

    expect((await getEscrow(t.deps, { id: paid.escrowId!, tenant: A.id }))._unsafeUnwrap().id).toBe(
      paid.escrowId,
    );
    const escrowHidden = (await getEscrow(t.deps, { id: paid.escrowId!, tenant: B.id }))._unsafeUnwrapErr();
    const escrowUnknown = (await getEscrow(t.deps, { id: 'esc_nobody', tenant: B.id }))._unsafeUnwrapErr();
    expect(escrowHidden.code).toBe('ESCROW_NOT_FOUND');
    expect(escrowHidden.message.replace(paid.escrowId!, 'X')).toBe(
      escrowUnknown.message.replace('esc_nobody', 'X'),
    );
    expect(
      (
        await settleEscrow(t.deps, { id: paid.escrowId!, settlement: 'refund', tenant: B.id })
      )._unsafeUnwrapErr().code,
    ).toBe('ESCROW_NOT_FOUND');

    expect((await getNft(t.deps, { mint: minted.mint!, tenant: A.id }))._unsafeUnwrap().name).toBe('A');
    expect((await getNft(t.deps, { mint: minted.mint!, tenant: B.id }))._unsafeUnwrapErr().code).toBe(
      'NFT_NOT_FOUND',
    );

    expect((await getBalances(t.deps, { publicKey: t.alice, tenant: A.id }))._unsafeUnwrap().managed).toBe(
      true,
    );
    expect((await getBalances(t.deps, { publicKey: t.alice, tenant: B.id }))._unsafeUnwrapErr().code).toBe(
      'ACCOUNT_NOT_FOUND',
    );
    // A key nobody holds is public chain data; so is the treasury, the service's own.
    const nobody = encodeBase58(crypto.getRandomValues(new Uint8Array(32)));
    expect((await getBalances(t.deps, { publicKey: nobody, tenant: B.id }))._unsafeUnwrap().managed).toBe(
      false,
    );
    expect(
      (await getBalances(t.deps, { publicKey: t.deps.accounts.treasury, tenant: B.id }))._unsafeUnwrap()
        .managed,
    ).toBe(true);
  });

  it('binds a preview to its tenant: another tenant’s sign is refused as a forged preview', async () => {
    const t = await setup();
    const req = {
      account: t.alice,
      transactionType: 'mint',
      details: { name: 'P', symbol: 'P', uri: 'https://p.example' },
    };
    const p = (await preview(t.deps, req, A))._unsafeUnwrap();
    const forged = (
      await sign(t.deps, { ...req, preview: `${p.preview.slice(0, -2)}AA` }, { tenant: B })
    )._unsafeUnwrapErr();
    const foreign = (await sign(t.deps, { ...req, preview: p.preview }, { tenant: B }))._unsafeUnwrapErr();
    expect(foreign).toEqual(forged);
    expect(
      (await sign(t.deps, { ...req, preview: p.preview }, { tenant: A }))._unsafeUnwrap().transactionId,
    ).toBeTruthy();
  });

  it('lets only tenants with the permission pay from the treasury', async () => {
    const t = await setup();
    const input = { charity: t.charity, amount: '0.1', currency: 'SOL' };
    const refused = (await charityDonate(t.deps, input, { tenant: A }))._unsafeUnwrapErr();
    expect(refused.code).toBe('FORBIDDEN');
    expect(
      (await charityDonate(t.deps, input, { tenant: { ...A, treasuryPayments: true } }))._unsafeUnwrap()
        .transactionId,
    ).toBeTruthy();
    expect(
      (
        await merchantPay(
          t.deps,
          { merchant: t.charity, amount: '0.1', currency: 'SOL' },
          { tenant: DEFAULT_TENANT_ACCESS },
        )
      ).isOk(),
    ).toBe(true);
  });
});
