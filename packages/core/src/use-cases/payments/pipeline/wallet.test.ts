import { describe, expect, it } from 'vitest';
import type { PublicKey, Signature } from '../../../domain/public-key.js';
import { splitWireTransaction } from '../../../domain/signed-transaction.js';
import { DEFAULT_TENANT } from '../../../domain/tenant.js';
import { assembleTransaction } from '../../../domain/wire.js';
import { createTestDeps, type TestDeps } from '../../../testing/index.js';
import { track } from '../track.js';
import { awaitsWalletSignature, trackingPass } from '../tracking.js';
import { prepareForWallet } from './wallet.js';

const WALLET = 'Hb1PCQdhoLHH9yEXRjbkwmsQ1ZqyLKmUNvsSq9nsnDCt' as PublicKey;

const OTHER = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' as PublicKey;

async function setup(): Promise<TestDeps & { executedBefore: number }> {
  const t = await createTestDeps();
  const executedBefore = t.chain.executedCount();
  t.chain.credit(WALLET, t.chain.currencies.native, 5_000_000_000n);
  t.chain.credit(WALLET, t.chain.currencies.stable, 100_000_000n);
  return { ...t, executedBefore };
}

const balance = async (t: TestDeps, who: PublicKey, code: string) =>
  (await t.chain.getBalance(who, t.chain.currencies.byCode(code)!))._unsafeUnwrap();

/** What the wallet does: fill its empty slot (the fake chain does not verify signatures). */
function walletSigns(wire: Uint8Array): Uint8Array {
  const parts = splitWireTransaction(wire)!;
  return assembleTransaction(
    parts.message,
    parts.signatures.map((s) => (s.every((b) => b === 0) ? new Uint8Array(64).fill(7) : s)),
  );
}

describe('prepareForWallet', () => {
  it('lets the treasury pay the fee and sign first, leaves the wallet slot empty and records it unsent', async () => {
    const t = await setup();
    const out = (
      await prepareForWallet(
        t.deps,
        'donation',
        { currency: 'USDC', amount: '12.5', priority: 'High' },
        WALLET,
      )
    )._unsafeUnwrap();
    const parts = splitWireTransaction(out.transaction)!;
    expect(parts.signatures).toHaveLength(2);
    expect(parts.signatures[0]!.some((b) => b !== 0)).toBe(true);
    expect(parts.signatures[1]!.every((b) => b === 0)).toBe(true);
    expect(awaitsWalletSignature(out.transaction)).toBe(true);
    expect(out.message).toContain(out.transactionId);
    const record = (await t.store.transactions.get(out.transactionId))._unsafeUnwrap();
    expect(record).toMatchObject({ kind: 'donation', status: 'pending', from: WALLET, amount: 12_500_000n });
    expect(t.chain.executedCount()).toBe(t.executedBefore);

    // The wallet signs and sends it itself; tracking follows the treasury's signature.
    const treasuryBefore = await balance(t, t.deps.accounts.treasury, 'USDC');
    await t.chain.send(walletSigns(out.transaction));
    expect(await balance(t, WALLET, 'USDC')).toBe(87_500_000n);
    expect(await balance(t, WALLET, 'SOL')).toBe(5_000_000_000n);
    expect((await balance(t, t.deps.accounts.treasury, 'USDC')) - treasuryBefore).toBe(12_500_000n);
    t.chain.advance(40);
    // A wallet's action is the default tenant's.
    expect(
      (await track(t.deps, { transactionId: out.transactionId, tenant: DEFAULT_TENANT }))._unsafeUnwrap()
        .status,
    ).toBe('finalized');
  });

  it('never rebroadcasts a transaction that waits for its wallet; it expires unlanded', async () => {
    const t = await setup();
    const out = (
      await prepareForWallet(t.deps, 'donation', { currency: 'SOL', amount: '1', priority: 'Low' }, WALLET)
    )._unsafeUnwrap();
    const pass = (await trackingPass(t.deps, { owner: 'w' }))._unsafeUnwrap();
    expect(pass.rebroadcast).toBe(0);
    t.chain.advance(400);
    await trackingPass(t.deps, { owner: 'w', leaseMs: 0 });
    const record = (await t.store.transactions.get(out.transactionId as Signature))._unsafeUnwrap();
    expect(record?.status).toBe('expired');
    expect(t.chain.executedCount()).toBe(t.executedBefore);
  });

  it('mints to the wallet, which co-signs and pays nothing', async () => {
    const t = await setup();
    const out = (
      await prepareForWallet(
        t.deps,
        'mint',
        { name: 'Badge', symbol: 'B', uri: 'https://x/b.json', priority: 'Medium' },
        WALLET,
      )
    )._unsafeUnwrap();
    expect(out.mint).toBeDefined();
    expect(out.message).toContain(`as ${out.mint}`);
    const parts = splitWireTransaction(out.transaction)!;
    expect(parts.signatures.filter((s) => s.every((b) => b === 0))).toHaveLength(1);
    await t.chain.send(walletSigns(out.transaction));
    expect((await t.chain.getNft(out.mint!))._unsafeUnwrap()?.owner).toBe(WALLET);
    expect(await balance(t, WALLET, 'SOL')).toBe(5_000_000_000n);
  });

  it('funds an escrow from the wallet when asked', async () => {
    const t = await setup();
    const out = (
      await prepareForWallet(
        t.deps,
        'merchant_payment',
        { merchant: OTHER, currency: 'SOL', amount: '0.5', priority: 'Medium', useEscrow: true },
        WALLET,
      )
    )._unsafeUnwrap();
    const escrow = (await t.store.escrows.get(out.escrowId!))._unsafeUnwrap();
    expect(escrow).toMatchObject({ payer: WALLET, beneficiary: OTHER, amount: 500_000_000n, status: 'held' });
  });

  it('refuses every account the service holds a key for', async () => {
    const t = await setup();
    const managed = (await t.keystore.create())._unsafeUnwrap();
    for (const account of [
      t.deps.accounts.treasury,
      t.deps.accounts.escrowVault,
      t.deps.accounts.mintAuthority,
      managed,
    ]) {
      const e = (
        await prepareForWallet(t.deps, 'donation', { currency: 'SOL', amount: '1', priority: 'Low' }, account)
      )._unsafeUnwrapErr();
      expect(e).toMatchObject({ code: 'INVALID_INPUT' });
      expect(e.message).toMatch(/held by this service/);
    }
    expect((await prepareForWallet(t.deps, 'donation', {}, 'nope'))._unsafeUnwrapErr().code).toBe(
      'INVALID_PUBLIC_KEY',
    );
  });
});
