import { describe, expect, it } from 'vitest';
import type { Signature } from '../../domain/public-key.js';
import { DEFAULT_TENANT } from '../../domain/tenant.js';
import { donate } from './donate.js';
import { prepareIntent } from './pipeline/prepare.js';
import { recordAndSend } from './pipeline/record.js';
import { signPrepared } from './pipeline/sign.js';
import { AS_DEFAULT, type PaymentsTest, setup } from './test-support.js';
import { track } from './track.js';
import { trackingPass } from './tracking.js';

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
  async function lostAfterTracking(t: PaymentsTest, slots: number) {
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
