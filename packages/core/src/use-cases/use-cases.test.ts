import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { PublicKey, Signature } from '../domain/public-key.js';
import { domainError } from '../errors.js';
import {
  charityDonate,
  DEFAULT_TENANT,
  DEFAULT_TENANT_ACCESS,
  donate,
  getBalances,
  merchantPay,
  mint,
  preview,
  settleEscrow,
  sign,
  sweepUnsettled,
  track,
  trackingPass,
} from '../index.js';
import { createTestDeps, type TestDeps } from '../testing/index.js';
import { prepareIntent } from './payments/pipeline/prepare.js';
import { recordAndSend } from './payments/pipeline/record.js';
import { signPrepared } from './payments/pipeline/sign.js';

const AS_DEFAULT = { tenant: DEFAULT_TENANT_ACCESS };

async function setup(): Promise<TestDeps & { sender: PublicKey }> {
  const t = await createTestDeps();
  const sender = (await t.keystore.create())._unsafeUnwrap();
  t.chain.credit(sender, t.chain.currencies.native, 10_000_000_000n);
  t.chain.credit(sender, t.chain.currencies.stable, 1_000_000_000n);
  return { ...t, sender };
}

const balance = async (t: TestDeps, who: PublicKey, code: string) =>
  (await t.chain.getBalance(who, t.chain.currencies.byCode(code)!))._unsafeUnwrap();

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

  it('is tracked pending -> finalized as slots pass', async () => {
    const t = await setup();
    const { transactionId } = (
      await donate(t.deps, { currency: 'SOL', account: t.sender, amount: '1', priority: 'Min' }, AS_DEFAULT)
    )._unsafeUnwrap();
    expect((await track(t.deps, { transactionId, tenant: DEFAULT_TENANT }))._unsafeUnwrap().status).toBe(
      'processed',
    );
    t.chain.advance(40);
    expect((await sweepUnsettled(t.deps))._unsafeUnwrap()).toEqual({ checked: 1, moved: 1 });
    expect((await track(t.deps, { transactionId, tenant: DEFAULT_TENANT }))._unsafeUnwrap().status).toBe(
      'finalized',
    );
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

  it('keeps a transaction whose send failed, and marks it expired once its blockhash passes', async () => {
    const t = await setup();
    const intent = {
      kind: 'transfer',
      currency: t.chain.currencies.native,
      from: t.sender,
      to: t.deps.accounts.treasury,
      amount: 1n,
    } as const;
    const prepared = (await prepareIntent(t.deps, intent, 'Low'))._unsafeUnwrap();
    const signed = (await signPrepared(t.deps, prepared))._unsafeUnwrap();
    const executedBefore = t.chain.executedCount();
    t.chain.setUnavailable(true);
    const sent = (
      await recordAndSend(t.deps, prepared, signed, { tenant: DEFAULT_TENANT, kind: 'donation' })
    )._unsafeUnwrap();
    t.chain.setUnavailable(false);
    expect(sent.record.status).toBe('pending');
    t.chain.advance(Number(prepared.lastValidBlockHeight - t.chain.slot()) + 1);
    (await sweepUnsettled(t.deps))._unsafeUnwrap();
    expect(
      (await track(t.deps, { transactionId: signed.id, tenant: DEFAULT_TENANT }))._unsafeUnwrap().status,
    ).toBe('expired');
    expect(t.chain.executedCount()).toBe(executedBefore);
  });
});

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

describe('preview and sign', () => {
  it('signing one preview twice sends one transfer and returns one id', async () => {
    const t = await setup();
    const req = {
      account: t.sender,
      transactionType: 'donation',
      details: { currency: 'USDC', amount: '3', priority: 'Low' },
    };
    const p = (await preview(t.deps, req, DEFAULT_TENANT_ACCESS))._unsafeUnwrap();
    expect(p.balanceChanges).toEqual([
      { account: t.sender, currency: 'USDC', amount: '-3' },
      { account: t.deps.accounts.treasury, currency: 'USDC', amount: '3' },
    ]);
    const executedBefore = t.chain.executedCount();
    const a = (await sign(t.deps, { ...req, preview: p.preview }, AS_DEFAULT))._unsafeUnwrap();
    const b = (await sign(t.deps, { ...req, preview: p.preview }, AS_DEFAULT))._unsafeUnwrap();
    expect(a.transactionId).toBe(b.transactionId);
    expect(t.chain.executedCount() - executedBefore).toBe(1);
    expect(await balance(t, t.sender, 'USDC')).toBe(997_000_000n);
  });

  it('previews nothing onto the chain', async () => {
    const t = await setup();
    const before = t.chain.executedCount();
    (
      await preview(
        t.deps,
        {
          account: t.sender,
          transactionType: 'mint',
          details: { name: 'A', symbol: 'A', uri: 'https://a/1' },
        },
        AS_DEFAULT,
      )
    )._unsafeUnwrap();
    expect(t.chain.executedCount()).toBe(before);
  });

  it('refuses a preview after its expiry', async () => {
    const t = await setup();
    const req = {
      account: t.sender,
      transactionType: 'donation',
      details: { currency: 'SOL', amount: '1', priority: 'Low' },
    };
    const p = (await preview(t.deps, req, DEFAULT_TENANT_ACCESS))._unsafeUnwrap();
    t.clock.advance(t.deps.policies.previewTtlMs + 1);
    expect((await sign(t.deps, { ...req, preview: p.preview }, AS_DEFAULT))._unsafeUnwrapErr().code).toBe(
      'PREVIEW_EXPIRED',
    );
  });
});

describe('mint', () => {
  it('mints to the owner with the metadata asked for', async () => {
    const t = await setup();
    const out = (
      await mint(t.deps, { name: 'One', symbol: 'ONE', uri: 'ipfs://cid', owner: t.sender }, AS_DEFAULT)
    )._unsafeUnwrap();
    const nft = (await t.chain.getNft(out.mint as PublicKey))._unsafeUnwrap();
    expect(nft).toMatchObject({ name: 'One', symbol: 'ONE', uri: 'ipfs://cid', supply: 1n, decimals: 0 });
  });

  it('takes https:, ipfs: and ar: metadata URIs and refuses every other scheme (decision 5)', async () => {
    const t = await setup();
    for (const uri of [
      'https://example.org/1.json',
      'ipfs://bafy/1.json',
      'ar://tx-id',
      'HTTPS://EXAMPLE.ORG/x',
    ]) {
      expect(
        (await mint(t.deps, { name: 'Ok', symbol: 'OK', uri }, AS_DEFAULT))._unsafeUnwrap().mint,
        uri,
      ).toBeDefined();
    }
    for (const uri of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'http://example.org/1.json',
      'vbscript:msgbox',
    ]) {
      const refused = (await mint(t.deps, { name: 'No', symbol: 'NO', uri }, AS_DEFAULT))._unsafeUnwrapErr();
      expect(refused, uri).toMatchObject({
        code: 'INVALID_INPUT',
        message: 'uri must use one of https: ipfs: ar:',
      });
    }
  });
});

describe('balances', () => {
  it('reports every currency with base units and decimals', async () => {
    const t = await setup();
    const out = (await getBalances(t.deps, { publicKey: t.sender, tenant: DEFAULT_TENANT }))._unsafeUnwrap();
    expect(out.managed).toBe(true);
    expect(out.balances).toEqual([
      { currency: 'SOL', baseUnits: '10000000000', amount: '10', decimals: 9 },
      { currency: 'USDC', baseUnits: '1000000000', amount: '1000', decimals: 6 },
      { currency: 'PROJ', baseUnits: '0', amount: '0', decimals: 9 },
    ]);
  });
});

describe('tracking pass', () => {
  it('two workers split the unsettled transactions and each status change happens once', async () => {
    const t = await setup();
    const ids: string[] = [];
    for (let i = 1; i <= 20; i++) {
      ids.push(
        (
          await donate(
            t.deps,
            { currency: 'SOL', account: t.sender, amount: `0.00${i}`, priority: 'Low' },
            AS_DEFAULT,
          )
        )._unsafeUnwrap().transactionId,
      );
    }
    t.chain.advance(40);
    const [a, b] = await Promise.all([
      trackingPass(t.deps, { owner: 'a', limit: 12 }),
      trackingPass(t.deps, { owner: 'b', limit: 12 }),
    ]);
    expect(a._unsafeUnwrap().claimed + b._unsafeUnwrap().claimed).toBe(20);
    expect(a._unsafeUnwrap().moved + b._unsafeUnwrap().moved).toBe(20);
    for (const id of ids) expect(t.store.transactionEvents(id as Signature)).toHaveLength(1);
    expect((await trackingPass(t.deps, { owner: 'c' }))._unsafeUnwrap().claimed).toBe(0);
  });

  it('walks the unsettled transactions chunk by chunk, each once a pass, and stops at its limit', async () => {
    const t = await setup();
    const ids: string[] = [];
    for (let i = 1; i <= 23; i++) {
      const out = await donate(
        t.deps,
        { currency: 'SOL', account: t.sender, amount: `0.00${i}`, priority: 'Low' },
        AS_DEFAULT,
      );
      ids.push(out._unsafeUnwrap().transactionId);
    }
    const claims: number[] = [];
    const claimUnsettled = t.deps.store.transactions.claimUnsettled.bind(t.deps.store.transactions);
    const store = {
      ...t.deps.store,
      transactions: {
        ...t.deps.store.transactions,
        claimUnsettled: (...args: Parameters<typeof claimUnsettled>) =>
          claimUnsettled(...args).map((rows) => {
            claims.push(rows.length);
            return rows;
          }),
      },
    };
    t.chain.advance(40);
    const pass = (await trackingPass({ ...t.deps, store }, { owner: 'w', chunk: 5 }))._unsafeUnwrap();
    // 23 in chunks of 5: four full claims and a short one, every transaction exactly once.
    expect(claims).toEqual([5, 5, 5, 5, 3]);
    expect(pass).toEqual({ claimed: 23, rebroadcast: 0, moved: 23 });
    for (const id of ids) expect(t.store.transactionEvents(id as Signature)).toHaveLength(1);

    claims.length = 0;
    for (let i = 1; i <= 7; i++) {
      await donate(
        t.deps,
        { currency: 'SOL', account: t.sender, amount: `0.01${i}`, priority: 'Low' },
        AS_DEFAULT,
      );
    }
    const capped = (
      await trackingPass({ ...t.deps, store }, { owner: 'w', chunk: 5, limit: 6 })
    )._unsafeUnwrap();
    expect(claims).toEqual([5, 1]);
    expect(capped.claimed).toBe(6);
  });

  it('leaves a confirmed transaction alone until it could be final (finalityWaitMs)', async () => {
    const t = await setup();
    const { transactionId } = (
      await donate(
        t.deps,
        { currency: 'SOL', account: t.sender, amount: '0.25', priority: 'Low' },
        AS_DEFAULT,
      )
    )._unsafeUnwrap();
    const options = { owner: 'w', finalityWaitMs: 9_300 };
    t.chain.advance(1);
    expect((await trackingPass(t.deps, options))._unsafeUnwrap()).toMatchObject({ claimed: 1, moved: 1 });
    expect(t.store.transactionEvents(transactionId as Signature).map((e) => e.to)).toEqual(['confirmed']);

    // Final on the chain already, but confirmed less than 9.3 s ago: not read again. A pending
    // transaction is read every pass.
    t.chain.advance(40);
    t.clock.advance(9_000);
    const other = (
      await donate(t.deps, { currency: 'SOL', account: t.sender, amount: '0.5', priority: 'Low' }, AS_DEFAULT)
    )._unsafeUnwrap();
    expect((await trackingPass(t.deps, options))._unsafeUnwrap()).toMatchObject({ claimed: 1, moved: 1 });
    expect(t.store.transactionEvents(transactionId as Signature).map((e) => e.to)).toEqual(['confirmed']);
    expect(t.store.transactionEvents(other.transactionId as Signature).map((e) => e.to)).toEqual([
      'processed',
    ]);

    // Once the wait has run, the confirmed one is read and moves on.
    t.clock.advance(301);
    expect((await trackingPass(t.deps, options))._unsafeUnwrap()).toMatchObject({ claimed: 2, moved: 1 });
    expect(t.store.transactionEvents(transactionId as Signature).map((e) => e.to)).toEqual([
      'confirmed',
      'finalized',
    ]);
  });

  it('re-sends only what the chain has not seen, inside its blockhash window', async () => {
    const t = await setup();
    const landed = (
      await donate(t.deps, { currency: 'SOL', account: t.sender, amount: '0.5', priority: 'Low' }, AS_DEFAULT)
    )._unsafeUnwrap();
    const intent = {
      kind: 'transfer',
      currency: t.chain.currencies.native,
      from: t.sender,
      to: t.deps.accounts.treasury,
      amount: 250_000_000n,
    } as const;
    const prepared = (await prepareIntent(t.deps, intent, 'Low'))._unsafeUnwrap();
    const signed = (await signPrepared(t.deps, prepared))._unsafeUnwrap();
    t.chain.setUnavailable(true);
    (
      await recordAndSend(t.deps, prepared, signed, { tenant: DEFAULT_TENANT, kind: 'donation' })
    )._unsafeUnwrap();
    t.chain.setUnavailable(false);
    const executedBefore = t.chain.executedCount();

    const pass = (await trackingPass(t.deps, { owner: 'w' }))._unsafeUnwrap();
    // The landed donation moved on and was not sent again; the lost one was re-sent and executed.
    expect(pass).toMatchObject({ claimed: 2, rebroadcast: 1 });
    expect(t.chain.executedCount()).toBe(executedBefore + 1);
    expect(
      (await track(t.deps, { transactionId: landed.transactionId, tenant: DEFAULT_TENANT }))._unsafeUnwrap()
        .status,
    ).not.toBe('pending');
    const next = (await trackingPass(t.deps, { owner: 'w' }))._unsafeUnwrap();
    expect(next.rebroadcast).toBe(0);
  });

  /** A donation recorded and seen by one tracking pass, and a view of the chain that has lost it
   * (its fork was dropped) and counts what is sent to it. */
  async function lostAfterTracking(t: Awaited<ReturnType<typeof setup>>, slots: number) {
    const out = (
      await donate(t.deps, { currency: 'SOL', account: t.sender, amount: '0.5', priority: 'Low' }, AS_DEFAULT)
    )._unsafeUnwrap();
    const id = out.transactionId as Signature;
    t.chain.advance(slots);
    expect((await trackingPass(t.deps, { owner: 'w' }))._unsafeUnwrap()).toMatchObject({ moved: 1 });
    const seen = (await t.store.transactions.get(id))._unsafeUnwrap()!;
    const sent: Uint8Array[] = [];
    const chain = {
      ...t.deps.chain,
      getStatuses: (ids: readonly Signature[]) =>
        t.deps.chain.getStatuses(ids).map((statuses) => statuses.map((s, i) => (ids[i] === id ? null : s))),
      send: (wire: Uint8Array) => {
        sent.push(wire);
        return t.deps.chain.send(wire);
      },
    };
    const expire = () => t.chain.advance(Number(seen.lastValidBlockHeight - t.chain.slot()) + 1);
    const status = async () => (await t.store.transactions.get(id))._unsafeUnwrap()!.status;
    return { seen, deps: { ...t.deps, chain }, sent, expire, status };
  }

  it('re-sends a processed transaction the chain no longer knows, and expires it once its blockhash passed', async () => {
    const lost = await lostAfterTracking(await setup(), 0);
    expect(lost.seen.status).toBe('processed');
    const inside = (await trackingPass(lost.deps, { owner: 'w' }))._unsafeUnwrap();
    expect(inside).toMatchObject({ claimed: 1, rebroadcast: 1, moved: 0 });
    expect(lost.sent).toEqual([lost.seen.wire]);
    expect(await lost.status()).toBe('processed');

    // Past its blockhash window it can never land: expired, and not sent again.
    lost.expire();
    const after = (await trackingPass(lost.deps, { owner: 'w' }))._unsafeUnwrap();
    expect(after).toMatchObject({ claimed: 1, rebroadcast: 0, moved: 1 });
    expect(lost.sent).toHaveLength(1);
    expect(await lost.status()).toBe('expired');
  });

  it('leaves a confirmed transaction the chain does not answer for as it is, and never re-sends it', async () => {
    const lost = await lostAfterTracking(await setup(), 2);
    expect(lost.seen.status).toBe('confirmed');
    lost.expire();
    const pass = (await trackingPass(lost.deps, { owner: 'w' }))._unsafeUnwrap();
    expect(pass).toMatchObject({ claimed: 1, rebroadcast: 0, moved: 0 });
    expect(lost.sent).toHaveLength(0);
    expect(await lost.status()).toBe('confirmed');
  });
});
