import { describe, expect, it } from 'vitest';
import type { PublicKey, Signature } from '../domain/public-key.js';
import { splitWireTransaction } from '../domain/signed-transaction.js';
import { assembleTransaction } from '../domain/wire.js';
import { createTestDeps, type TestDeps } from '../testing/index.js';
import { prepareForWallet } from '../use-cases/payments/pipeline/wallet.js';
import { track } from '../use-cases/payments/track.js';
import { awaitsWalletSignature, trackingPass } from '../use-cases/payments/tracking.js';
import { actionCatalog } from './catalog.js';
import { readActionRequest } from './input.js';
import { actionMetadata, actionsJson, presetValues, solanaChainId } from './metadata.js';

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

describe('the actions catalog (spec "actions.json", "GET Response", "Action Parameters")', () => {
  it('has one action per currency for donations, and charity, merchant and mint', async () => {
    const t = await setup();
    const catalog = actionCatalog(t.deps.currencies);
    expect(catalog.map((d) => d.path)).toEqual([
      'donate/sol',
      'donate/usdc',
      'donate/proj',
      'charity',
      'merchant',
      'mint',
    ]);
    expect(actionsJson(catalog, '/v1/actions').rules[0]).toEqual({
      pathPattern: '/donate/sol',
      apiPath: '/v1/actions/donate/sol',
    });
  });

  it('types every parameter and leaves {name} placeholders for the client', async () => {
    const t = await setup();
    const merchant = actionCatalog(t.deps.currencies).find((d) => d.path === 'merchant')!;
    const metadata = actionMetadata(merchant, {
      path: '/v1/actions/merchant',
      iconUrl: 'https://x/i.svg',
      fixed: {},
    });
    const form = metadata.links.actions.at(-1)!;
    expect(form.href).toBe(
      '/v1/actions/merchant?merchant={merchant}&amount={amount}&currency={currency}&priority={priority}&useEscrow={useEscrow}',
    );
    const byName = Object.fromEntries(form.parameters!.map((p) => [p.name, p]));
    expect(byName.amount).toMatchObject({ type: 'number', required: true, min: 1e-9 });
    expect(byName.currency).toMatchObject({ type: 'select' });
    expect(byName.priority!.type === 'select' && byName.priority!.options.map((o) => o.value)).toEqual([
      'Min',
      'Low',
      'Medium',
      'High',
      'VeryHigh',
    ]);
    expect(new RegExp((byName.merchant as { pattern: string }).pattern).test(OTHER)).toBe(true);
  });

  it('drops parameters fixed by the query string and offers presets only without an amount', async () => {
    const t = await setup();
    const sol = actionCatalog(t.deps.currencies)[0]!;
    const open = actionMetadata(sol, { path: '/p', iconUrl: 'https://x/i.svg', fixed: {} });
    expect(open.links.actions.map((a) => a.href)).toEqual([
      '/p?amount=0.1',
      '/p?amount=1',
      '/p?amount={amount}&priority={priority}',
    ]);
    const fixed = presetValues(sol, { amount: '2', unrelated: 'x' });
    expect(fixed).toEqual({ amount: '2' });
    const one = actionMetadata(sol, { path: '/p', iconUrl: 'https://x/i.svg', fixed });
    expect(one.links.actions.map((a) => a.href)).toEqual(['/p?amount=2&priority={priority}']);
  });

  it('CAIP-2 ids use the first 32 characters of the genesis hash', () => {
    expect(solanaChainId('5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d')).toBe(
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    );
  });
});

describe('reading a POST (spec "POST Request")', () => {
  it('takes values from the query string and from data, data winning, and defaults the priority', async () => {
    const t = await setup();
    const charity = actionCatalog(t.deps.currencies).find((d) => d.path === 'charity')!;
    const read = readActionRequest(
      charity,
      { amount: '1', currency: 'usdc', charity: OTHER },
      {
        account: WALLET,
        data: { amount: '2', useEscrow: ['true'] },
      },
    )._unsafeUnwrap();
    expect(read).toEqual({
      account: WALLET,
      fields: { charity: OTHER, amount: '2', currency: 'USDC', priority: 'Medium', useEscrow: true },
    });
  });

  it('refuses a missing required value, a multi-value, a bad escrow flag and a body without account', async () => {
    const t = await setup();
    const [sol, , , charity] = actionCatalog(t.deps.currencies);
    expect(readActionRequest(sol!, {}, { account: WALLET })._unsafeUnwrapErr().message).toMatch(
      /amount is required/,
    );
    expect(
      readActionRequest(sol!, {}, { account: WALLET, data: { amount: ['1', '2'] } })._unsafeUnwrapErr()
        .message,
    ).toMatch(/single/);
    expect(
      readActionRequest(
        charity!,
        { charity: OTHER, amount: '1', currency: 'SOL', useEscrow: 'maybe' },
        {
          account: WALLET,
        },
      )._unsafeUnwrapErr().message,
    ).toMatch(/useEscrow/);
    expect(readActionRequest(sol!, { amount: '1' }, {})._unsafeUnwrapErr().code).toBe('INVALID_PUBLIC_KEY');
    expect(readActionRequest(sol!, { amount: '1' }, [])._unsafeUnwrapErr().code).toBe('INVALID_INPUT');
  });
});

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
    expect((await track(t.deps, { transactionId: out.transactionId }))._unsafeUnwrap().status).toBe(
      'finalized',
    );
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
