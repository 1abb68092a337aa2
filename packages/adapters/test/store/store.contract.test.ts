import type { EscrowRecord, Signature, StorePort, TransactionRecord, TxStatus } from '@token-actions/core';
import { DEFAULT_TENANT, type TenantId, U64_MAX } from '@token-actions/core';
import { createFixedClock, createInMemoryStore, type FixedClock } from '@token-actions/core/testing';
import type { ResultAsync } from 'neverthrow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createPgStore,
  KEY_CHANGES_CHANNEL,
  listTransactionEvents,
  type SqlClient,
} from '../../src/store/index.js';
import {
  createMigratedEmbeddedPostgres,
  createMigratedPglite,
  createPostgresSchema,
  POSTGRES_REACHABLE,
  randomPublicKey,
  randomSignature,
  truncateAll,
} from './harness.js';

const HOUR = 60 * 60 * 1000;

async function unwrap<T, E>(pending: ResultAsync<T, E>): Promise<T> {
  return (await pending)._unsafeUnwrap();
}

interface Subject {
  store: StorePort;
  /** Number of recorded status changes of one transaction. */
  eventCount(id: Signature): Promise<number>;
}

interface Variant {
  name: string;
  skip?: boolean;
  /** The SQL client behind the store, for the pg variants. */
  sql?: () => SqlClient;
  setup(): Promise<void>;
  fresh(clock: FixedClock): Promise<Subject>;
  teardown(): Promise<void>;
}

function pgVariant(
  name: string,
  open: () => Promise<{ sql: SqlClient; close(): Promise<void> }>,
  skip = false,
): Variant {
  let opened: { sql: SqlClient; close(): Promise<void> } | undefined;
  return {
    name,
    skip,
    sql: () => opened!.sql,
    async setup() {
      opened = await open();
    },
    async fresh(clock) {
      const sql = opened!.sql;
      await truncateAll(sql);
      return {
        // As composed in the Node service: concurrent inserts share one statement.
        store: createPgStore(sql, { clock, coalesceWrites: true }),
        eventCount: async (id) => (await listTransactionEvents(sql, id))._unsafeUnwrap().length,
      };
    },
    async teardown() {
      await opened?.close();
    },
  };
}

const variants: Variant[] = [
  {
    name: 'in-memory fake',
    async setup() {},
    async fresh(clock) {
      const store = createInMemoryStore({ clock });
      return { store, eventCount: async (id) => store.transactionEvents(id).length };
    },
    async teardown() {},
  },
  pgVariant('PGlite', async () => {
    const sql = await createMigratedPglite();
    return { sql, close: () => sql.close() };
  }),
  pgVariant('embedded PostgreSQL', createMigratedEmbeddedPostgres),
  pgVariant(
    'PostgreSQL',
    async () => {
      const schema = await createPostgresSchema();
      return { sql: schema.sql, close: () => schema.drop() };
    },
    !POSTGRES_REACHABLE,
  ),
];

function txRecord(overrides: Partial<TransactionRecord> = {}, clock?: FixedClock): TransactionRecord {
  const at = clock?.now() ?? new Date('2025-01-01T00:00:00.000Z');
  return {
    id: randomSignature(),
    tenant: DEFAULT_TENANT,
    kind: 'donation',
    status: 'pending',
    currency: 'USDC',
    amount: 1_500_000n,
    from: randomPublicKey(),
    to: randomPublicKey(),
    priority: 'Medium',
    computeUnitPrice: 12_345n,
    computeUnitLimit: 200_000,
    feeLamports: 5_000n,
    wire: crypto.getRandomValues(new Uint8Array(300)),
    blockhash: randomPublicKey(),
    lastValidBlockHeight: 123_456_789n,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

function escrowRecord(overrides: Partial<EscrowRecord> = {}, clock?: FixedClock): EscrowRecord {
  const at = clock?.now() ?? new Date('2025-01-01T00:00:00.000Z');
  return {
    id: `esc_${crypto.randomUUID()}`,
    tenant: DEFAULT_TENANT,
    purpose: 'merchant_payment',
    payer: randomPublicKey(),
    beneficiary: randomPublicKey(),
    currency: 'USDC',
    amount: 25_000_000n,
    status: 'held',
    fundingTransactionId: randomSignature(),
    expiresAt: new Date(at.getTime() + HOUR),
    expiryAction: 'refund',
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

describe.each(variants)('StorePort contract: $name', (variant) => {
  describe.skipIf(Boolean(variant.skip))('semantics', () => {
    let clock: FixedClock;
    let store: StorePort;
    let eventCount: Subject['eventCount'];

    beforeAll(() => variant.setup(), 60_000);
    afterAll(() => variant.teardown());
    beforeEach(async () => {
      clock = createFixedClock(new Date('2025-03-01T12:00:00.000Z'));
      const subject = await variant.fresh(clock);
      store = subject.store;
      eventCount = subject.eventCount;
    });

    describe('transactions', () => {
      it('stores every field and reads it back unchanged', async () => {
        const record = txRecord(
          { mint: randomPublicKey(), escrowId: 'esc_1', slot: 987_654_321n, error: 'boom' },
          clock,
        );
        const inserted = (await store.transactions.insert(record))._unsafeUnwrap();
        expect(inserted.inserted).toBe(true);
        expect(inserted.record).toEqual(record);
        const read = (await store.transactions.get(record.id))._unsafeUnwrap();
        expect(read).toEqual(record);
        expect(read!.wire).toBeInstanceOf(Uint8Array);
      });

      it('leaves optional fields absent rather than undefined', async () => {
        const { currency, amount, from, to, priority, ...rest } = txRecord({}, clock);
        const record: TransactionRecord = { ...rest, kind: 'mint' };
        await store.transactions.insert(record);
        const read = (await store.transactions.get(record.id))._unsafeUnwrap()!;
        expect(read).toEqual(record);
        for (const key of [
          'currency',
          'amount',
          'from',
          'to',
          'mint',
          'escrowId',
          'priority',
          'slot',
          'error',
        ]) {
          expect(Object.hasOwn(read, key)).toBe(false);
        }
      });

      it('keeps u64 amounts exact (never through a float)', async () => {
        const beyondDouble = 2n ** 53n + 1n;
        const record = txRecord(
          {
            amount: U64_MAX,
            computeUnitPrice: beyondDouble,
            feeLamports: U64_MAX - 1n,
            lastValidBlockHeight: beyondDouble,
            slot: U64_MAX,
          },
          clock,
        );
        await store.transactions.insert(record);
        const read = (await store.transactions.get(record.id))._unsafeUnwrap()!;
        expect(read.amount).toBe(U64_MAX);
        expect(typeof read.amount).toBe('bigint');
        expect(read.computeUnitPrice).toBe(beyondDouble);
        expect(read.feeLamports).toBe(U64_MAX - 1n);
        expect(read.lastValidBlockHeight).toBe(beyondDouble);
        expect(read.slot).toBe(U64_MAX);
      });

      it('returns the existing record when the id is taken', async () => {
        const first = txRecord({}, clock);
        await store.transactions.insert(first);
        const second = { ...txRecord({}, clock), id: first.id, amount: 1n };
        const result = (await store.transactions.insert(second))._unsafeUnwrap();
        expect(result.inserted).toBe(false);
        expect(result.record).toEqual(first);
      });

      it('inserts exactly once under concurrency', async () => {
        const record = txRecord({}, clock);
        const results = await Promise.all(
          Array.from({ length: 20 }, () => unwrap(store.transactions.insert(record))),
        );
        expect(results.filter((r) => r.inserted)).toHaveLength(1);
        for (const r of results) expect(r.record).toEqual(record);
      });

      it('answers each of a burst of concurrent inserts, repeats in the burst as duplicates', async () => {
        const records = Array.from({ length: 60 }, (_, i) => txRecord({ amount: BigInt(i + 1) }, clock));
        const keyed = txRecord({ requestKey: 'key_1:burst' }, clock);
        const sameKey = txRecord({ requestKey: 'key_1:burst' }, clock);
        const distinct = await Promise.all(
          records.map((record) => unwrap(store.transactions.insert(record))),
        );
        for (const [i, result] of distinct.entries()) {
          expect(result.inserted).toBe(true);
          expect(result.record).toEqual(records[i]);
        }
        const fresh = Array.from({ length: 5 }, () => txRecord({}, clock));
        // A repeat of a stored row among new ones (one multi-row statement), then two that share a
        // request key in one burst: the first to arrive wins.
        const burst = [...fresh, records[7]!];
        const answers = await Promise.all(burst.map((record) => unwrap(store.transactions.insert(record))));
        expect(answers.map((a) => a.inserted)).toEqual([true, true, true, true, true, false]);
        expect(answers[5]!.record).toEqual(records[7]);
        const keyedAnswers = await Promise.all(
          [keyed, sameKey].map((r) => unwrap(store.transactions.insert(r))),
        );
        expect(keyedAnswers.map((a) => a.inserted)).toEqual([true, false]);
        expect(keyedAnswers[1]!.record.id).toBe(keyed.id);
        expect((await store.transactions.get(sameKey.id))._unsafeUnwrap()).toBeNull();
        for (const record of [...records, ...fresh]) {
          expect((await store.transactions.get(record.id))._unsafeUnwrap()).toEqual(record);
        }
      });

      it('returns null for an unknown id', async () => {
        expect((await store.transactions.get(randomSignature()))._unsafeUnwrap()).toBeNull();
      });

      it('moves a status by compare-and-set and records the move', async () => {
        const record = txRecord({}, clock);
        await store.transactions.insert(record);
        clock.advance(5_000);
        expect(
          (
            await store.transactions.transition(record.id, 'pending', 'processed', { slot: 42n })
          )._unsafeUnwrap(),
        ).toBe(true);
        expect((await store.transactions.transition(record.id, 'pending', 'processed'))._unsafeUnwrap()).toBe(
          false,
        );
        const read = (await store.transactions.get(record.id))._unsafeUnwrap()!;
        expect(read.status).toBe('processed');
        expect(read.slot).toBe(42n);
        expect(read.updatedAt).toEqual(clock.now());
        expect(read.createdAt).toEqual(record.createdAt);
        expect(await eventCount(record.id)).toBe(1);

        expect(
          (await store.transactions.transition(record.id, 'processed', 'finalized'))._unsafeUnwrap(),
        ).toBe(true);
        const final = (await store.transactions.get(record.id))._unsafeUnwrap()!;
        expect(final.status).toBe('finalized');
        expect(final.slot).toBe(42n);
        expect(await eventCount(record.id)).toBe(2);
      });

      it('keeps the failure message given with a move to failed', async () => {
        const record = txRecord({}, clock);
        await store.transactions.insert(record);
        expect(
          (
            await store.transactions.transition(record.id, 'pending', 'failed', {
              slot: 7n,
              error: 'custom program error: 0x1',
            })
          )._unsafeUnwrap(),
        ).toBe(true);
        const read = (await store.transactions.get(record.id))._unsafeUnwrap()!;
        expect(read.error).toBe('custom program error: 0x1');
        expect(read.slot).toBe(7n);
      });

      it('answers false for an unknown transaction', async () => {
        expect(
          (await store.transactions.transition(randomSignature(), 'pending', 'processed'))._unsafeUnwrap(),
        ).toBe(false);
      });

      it.each<[TxStatus, TxStatus]>([
        ['finalized', 'pending'],
        ['confirmed', 'expired'],
        ['pending', 'pending'],
        ['failed', 'finalized'],
        ['confirmed', 'processed'],
      ])('refuses the illegal move %s -> %s', async (from, to) => {
        const record = txRecord({ status: from }, clock);
        await store.transactions.insert(record);
        const result = await store.transactions.transition(record.id, from, to);
        expect(result.isErr()).toBe(true);
        expect(result._unsafeUnwrapErr().code).toBe('INVALID_STATUS_TRANSITION');
        expect((await store.transactions.get(record.id))._unsafeUnwrap()!.status).toBe(from);
        expect(await eventCount(record.id)).toBe(0);
      });

      it('moves many by compare-and-set in one call, answering in order which moved', async () => {
        const records = Array.from({ length: 6 }, () => txRecord({}, clock));
        for (const record of records) await store.transactions.insert(record);
        // Another worker moved the third one first: its move from pending loses.
        await store.transactions.transition(records[2]!.id, 'pending', 'processed');
        clock.advance(1_000);
        const moved = (
          await store.transactions.transitionMany([
            { id: records[0]!.id, from: 'pending', to: 'finalized', patch: { slot: 9n } },
            { id: records[1]!.id, from: 'pending', to: 'failed', patch: { slot: 10n, error: 'boom' } },
            { id: records[2]!.id, from: 'pending', to: 'confirmed', patch: { slot: 11n } },
            { id: records[3]!.id, from: 'pending', to: 'expired' },
            { id: randomSignature(), from: 'pending', to: 'processed' },
          ])
        )._unsafeUnwrap();
        expect(moved).toEqual([true, true, false, true, false]);
        const read = async (i: number) => (await store.transactions.get(records[i]!.id))._unsafeUnwrap()!;
        expect(await read(0)).toMatchObject({ status: 'finalized', slot: 9n, updatedAt: clock.now() });
        expect(await read(1)).toMatchObject({ status: 'failed', slot: 10n, error: 'boom' });
        expect((await read(2)).status).toBe('processed');
        expect(await read(3)).toMatchObject({ status: 'expired' });
        expect((await read(3)).slot).toBeUndefined();
        expect(await read(4)).toEqual(records[4]);
        expect(await eventCount(records[0]!.id)).toBe(1);
        expect(await eventCount(records[2]!.id)).toBe(1);
        expect((await store.transactions.transitionMany([]))._unsafeUnwrap()).toEqual([]);
      });

      it('refuses a batch of moves with an illegal one or one transaction twice, moving none', async () => {
        const [a, b] = [txRecord({}, clock), txRecord({}, clock)];
        for (const record of [a, b]) await store.transactions.insert(record);
        const illegal = await store.transactions.transitionMany([
          { id: a.id, from: 'pending', to: 'processed' },
          { id: b.id, from: 'pending', to: 'pending' },
        ]);
        expect(illegal._unsafeUnwrapErr().code).toBe('INVALID_STATUS_TRANSITION');
        const twice = await store.transactions.transitionMany([
          { id: a.id, from: 'pending', to: 'processed' },
          { id: a.id, from: 'processed', to: 'finalized' },
        ]);
        expect(twice._unsafeUnwrapErr().code).toBe('INVALID_INPUT');
        expect((await store.transactions.get(a.id))._unsafeUnwrap()!.status).toBe('pending');
        expect(await eventCount(a.id)).toBe(0);
      });

      it('moves 10,000 records in one sweep, each exactly as asked', async () => {
        const N = 10_000;
        const records = Array.from({ length: N }, (_, i) =>
          txRecord({ status: i % 3 === 0 ? 'processed' : 'pending', amount: BigInt(i + 1) }, clock),
        );
        const inserted = await Promise.all(
          records.map((record) => unwrap(store.transactions.insert(record))),
        );
        expect(inserted.every((r) => r.inserted)).toBe(true);
        // Every 7th moved already by someone else: those moves lose.
        const taken = records.filter((_, i) => i % 7 === 0);
        for (const record of taken) {
          (await store.transactions.transition(record.id, record.status, 'finalized'))._unsafeUnwrap();
        }
        const targets: TxStatus[] = ['confirmed', 'finalized', 'failed'];
        const moves = records.map((record, i) => ({
          id: record.id,
          from: record.status,
          to: targets[i % 3]!,
          patch: { slot: BigInt(i), ...(i % 3 === 2 ? { error: `error ${i}` } : {}) },
        }));
        const moved = (await store.transactions.transitionMany(moves))._unsafeUnwrap();
        expect(moved).toEqual(records.map((_, i) => i % 7 !== 0));
        const sample = [0, 1, 2, 3, 4, 5, 6, 7, 4_998, 4_999, 9_997, 9_998, 9_999];
        for (const i of sample) {
          const read = (await store.transactions.get(records[i]!.id))._unsafeUnwrap()!;
          if (i % 7 === 0) {
            expect(read.status).toBe('finalized');
            expect(read.slot).toBeUndefined();
          } else {
            expect(read.status).toBe(targets[i % 3]);
            expect(read.slot).toBe(BigInt(i));
            expect(read.error).toBe(i % 3 === 2 ? `error ${i}` : undefined);
          }
          expect(await eventCount(records[i]!.id)).toBe(1);
        }
        const unsettled = (await store.transactions.listUnsettled(N))._unsafeUnwrap();
        expect(unsettled).toHaveLength(records.filter((_, i) => i % 7 !== 0 && i % 3 === 0).length);
        expect(unsettled.every((r) => r.status === 'confirmed')).toBe(true);
      }, 120_000);

      it('lets exactly one of 50 concurrent identical moves win, with one event', async () => {
        const record = txRecord({}, clock);
        await store.transactions.insert(record);
        const results = await Promise.all(
          Array.from({ length: 50 }, () => store.transactions.transition(record.id, 'pending', 'processed')),
        );
        expect(results.map((r) => r._unsafeUnwrap()).filter(Boolean)).toHaveLength(1);
        expect(await eventCount(record.id)).toBe(1);
        expect((await store.transactions.get(record.id))._unsafeUnwrap()!.status).toBe('processed');
      });

      it('lets exactly one of competing moves to different statuses win', async () => {
        const record = txRecord({}, clock);
        await store.transactions.insert(record);
        const targets: TxStatus[] = ['processed', 'confirmed', 'finalized', 'failed', 'expired'];
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            store.transactions.transition(record.id, 'pending', targets[i % targets.length]!),
          ),
        );
        const winners = results
          .map((r, i) => (r._unsafeUnwrap() ? targets[i % targets.length] : undefined))
          .filter(Boolean);
        expect(winners).toHaveLength(1);
        expect((await store.transactions.get(record.id))._unsafeUnwrap()!.status).toBe(winners[0]);
        expect(await eventCount(record.id)).toBe(1);
      });

      it('lists unsettled transactions oldest first, up to the limit', async () => {
        const base = clock.now().getTime();
        const at = (minutes: number) => new Date(base + minutes * 60_000);
        const newest = txRecord({ createdAt: at(30), updatedAt: at(30) });
        const oldest = txRecord({ createdAt: at(0), updatedAt: at(0) });
        const middle = txRecord({ status: 'confirmed', createdAt: at(10), updatedAt: at(10) });
        const processed = txRecord({ status: 'processed', createdAt: at(20), updatedAt: at(20) });
        const settled = [
          txRecord({ status: 'finalized', createdAt: at(-10), updatedAt: at(-10) }),
          txRecord({ status: 'failed', createdAt: at(-9), updatedAt: at(-9) }),
          txRecord({ status: 'expired', createdAt: at(-8), updatedAt: at(-8) }),
        ];
        for (const r of [newest, ...settled, middle, oldest, processed]) await store.transactions.insert(r);

        const all = (await store.transactions.listUnsettled(100))._unsafeUnwrap();
        expect(all.map((r) => r.id)).toEqual([oldest.id, middle.id, processed.id, newest.id]);
        const two = (await store.transactions.listUnsettled(2))._unsafeUnwrap();
        expect(two.map((r) => r.id)).toEqual([oldest.id, middle.id]);

        await store.transactions.transition(oldest.id, 'pending', 'expired');
        const after = (await store.transactions.listUnsettled(100))._unsafeUnwrap();
        expect(after.map((r) => r.id)).toEqual([middle.id, processed.id, newest.id]);
      });

      it('reopens an escrow only for the payout that settled it', async () => {
        const escrow = escrowRecord({}, clock);
        await store.escrows.insert(escrow);
        const payout = txRecord({}, clock).id;
        expect((await store.escrows.settle(escrow.id, 'released', payout))._unsafeUnwrap()).toBe(true);
        expect((await store.escrows.reopen(escrow.id, txRecord({}, clock).id))._unsafeUnwrap()).toBe(false);
        expect((await store.escrows.reopen(escrow.id, payout))._unsafeUnwrap()).toBe(true);
        const reopened = (await store.escrows.get(escrow.id))._unsafeUnwrap()!;
        expect(reopened.status).toBe('held');
        expect(reopened.settlementTransactionId).toBeUndefined();
        expect((await store.escrows.reopen(escrow.id, payout))._unsafeUnwrap()).toBe(false);
      });

      it('keeps one transaction per request key and returns the first to a re-run', async () => {
        const first = txRecord({ requestKey: 'key_1:abc' }, clock);
        const rerun = txRecord({ requestKey: 'key_1:abc' }, clock);
        expect((await store.transactions.insert(first))._unsafeUnwrap().inserted).toBe(true);
        const again = (await store.transactions.insert(rerun))._unsafeUnwrap();
        expect(again.inserted).toBe(false);
        expect(again.record.id).toBe(first.id);
        expect(again.record.requestKey).toBe('key_1:abc');
        expect((await store.transactions.get(rerun.id))._unsafeUnwrap()).toBeNull();
        const other = txRecord({ requestKey: 'key_1:other' }, clock);
        expect((await store.transactions.insert(other))._unsafeUnwrap().inserted).toBe(true);
      });

      it('records a funding transaction and its escrow together, and neither twice', async () => {
        const record = txRecord({ requestKey: 'key_1:esc' }, clock);
        const escrow = escrowRecord({ fundingTransactionId: record.id }, clock);
        (await store.transactions.insert({ ...record, escrowId: escrow.id }, { escrow }))._unsafeUnwrap();
        expect((await store.escrows.get(escrow.id))._unsafeUnwrap()).toMatchObject({
          id: escrow.id,
          status: 'held',
        });

        const rerun = txRecord({ requestKey: 'key_1:esc' }, clock);
        const rerunEscrow = escrowRecord({ fundingTransactionId: rerun.id }, clock);
        const out = (
          await store.transactions.insert({ ...rerun, escrowId: rerunEscrow.id }, { escrow: rerunEscrow })
        )._unsafeUnwrap();
        expect(out.inserted).toBe(false);
        expect(out.record.escrowId).toBe(escrow.id);
        expect((await store.escrows.get(rerunEscrow.id))._unsafeUnwrap()).toBeNull();
      });

      it('claims what a tracking pass reads of a transaction, as it was recorded', async () => {
        const record = txRecord({ escrowId: 'esc_claimed', kind: 'escrow_release' }, clock);
        await store.transactions.insert(record);
        const [claimed] = (await store.transactions.claimUnsettled('worker-a', 10, 30_000))._unsafeUnwrap();
        expect(claimed).toMatchObject({
          id: record.id,
          kind: 'escrow_release',
          status: record.status,
          escrowId: 'esc_claimed',
          lastValidBlockHeight: record.lastValidBlockHeight,
          createdAt: record.createdAt,
        });
        expect(Buffer.from(claimed!.wire)).toEqual(Buffer.from(record.wire));
      });

      it('leases unsettled transactions to one worker at a time', async () => {
        const records = Array.from({ length: 10 }, (_, i) =>
          txRecord({ createdAt: new Date(clock.now().getTime() + i), updatedAt: clock.now() }),
        );
        for (const r of records) await store.transactions.insert(r);
        await store.transactions.insert(txRecord({ status: 'finalized' }, clock));

        const [a, b] = await Promise.all([
          store.transactions.claimUnsettled('worker-a', 6, 30_000),
          store.transactions.claimUnsettled('worker-b', 6, 30_000),
        ]);
        const idsA = a._unsafeUnwrap().map((r) => r.id);
        const idsB = b._unsafeUnwrap().map((r) => r.id);
        expect(idsA.filter((id) => idsB.includes(id))).toEqual([]);
        expect(new Set([...idsA, ...idsB])).toEqual(new Set(records.map((r) => r.id)));

        // Nothing is left for a third worker until the leases run out; the owner may renew its own.
        expect((await store.transactions.claimUnsettled('worker-c', 10, 30_000))._unsafeUnwrap()).toEqual([]);
        expect(
          (await store.transactions.claimUnsettled('worker-a', 10, 30_000))
            ._unsafeUnwrap()
            .map((r) => r.id)
            .sort(),
        ).toEqual([...idsA].sort());
        clock.advance(30_001);
        const c = (await store.transactions.claimUnsettled('worker-c', 100, 30_000))._unsafeUnwrap();
        expect(c).toHaveLength(10);

        // An owner's own lease is renewed only once half of it has run: worker-c's claim 10 s in
        // leaves the lease at its first 30 s (it lapses then), its claim 20 s in extends it.
        clock.advance(10_000);
        expect(
          (await store.transactions.claimUnsettled('worker-c', 100, 30_000))._unsafeUnwrap(),
        ).toHaveLength(10);
        clock.advance(20_001);
        expect(
          (await store.transactions.claimUnsettled('worker-e', 100, 30_000))._unsafeUnwrap(),
        ).toHaveLength(10);
        clock.advance(16_000);
        expect(
          (await store.transactions.claimUnsettled('worker-e', 100, 30_000))._unsafeUnwrap(),
        ).toHaveLength(10);
        clock.advance(20_000);
        expect((await store.transactions.claimUnsettled('worker-c', 100, 30_000))._unsafeUnwrap()).toEqual(
          [],
        );
        clock.advance(30_001);

        // A settled transaction is never claimed.
        await store.transactions.transition(records[0]!.id, 'pending', 'finalized');
        clock.advance(30_001);
        const d = (await store.transactions.claimUnsettled('worker-d', 100, 30_000))._unsafeUnwrap();
        expect(d.map((r) => r.id)).not.toContain(records[0]!.id);
        expect(d).toHaveLength(9);
      });

      it('claims a confirmed transaction only if it was confirmed by the time given (confirmedBy)', async () => {
        const at = clock.now().getTime();
        const early = txRecord({
          status: 'confirmed',
          createdAt: new Date(at),
          updatedAt: new Date(at - 10_000),
        });
        const recent = txRecord({
          status: 'confirmed',
          createdAt: new Date(at + 1),
          updatedAt: new Date(at),
        });
        const pending = txRecord({
          status: 'pending',
          createdAt: new Date(at + 2),
          updatedAt: new Date(at - 60_000),
        });
        const processed = txRecord({
          status: 'processed',
          createdAt: new Date(at + 3),
          updatedAt: new Date(at),
        });
        for (const r of [early, recent, pending, processed]) await store.transactions.insert(r);
        const ids = async (owner: string, confirmedBy?: Date) =>
          (await store.transactions.claimUnsettled(owner, 10, 30_000, undefined, confirmedBy))
            ._unsafeUnwrap()
            .map((r) => r.id);

        // Pending and processed ones are claimed whenever they were updated; a confirmed one only
        // if confirmed by then. The one left out is not leased: another worker takes it at once.
        expect(await ids('w', new Date(at - 1))).toEqual([early.id, pending.id, processed.id]);
        expect(await ids('v')).toEqual([recent.id]);
        clock.advance(30_001);
        expect(await ids('x', new Date(at - 10_001))).toEqual([pending.id, processed.id]);
        clock.advance(30_001);
        // The time given is inclusive.
        expect(await ids('y', new Date(at))).toEqual([early.id, recent.id, pending.id, processed.id]);
      });

      it('claims in chunks: each claim after a cursor starts where the last one ended', async () => {
        // Two share each creation time, so the cursor's id decides within one millisecond; ids
        // differ only in case, which compares byte-wise whatever the database's collation.
        const base = clock.now().getTime();
        const stem = randomSignature().slice(1);
        const records = Array.from({ length: 9 }, (_, i) =>
          txRecord({
            id: `${i % 2 === 0 ? 'a' : 'B'}${stem.slice(0, -1)}${i}` as TransactionRecord['id'],
            createdAt: new Date(base + Math.floor(i / 2)),
            updatedAt: clock.now(),
          }),
        );
        for (const r of records) await store.transactions.insert(r);
        const seen: string[] = [];
        let after: { createdAt: Date; id: string } | undefined;
        const sizes: number[] = [];
        for (;;) {
          const chunk = (await store.transactions.claimUnsettled('w', 4, 30_000, after))._unsafeUnwrap();
          sizes.push(chunk.length);
          seen.push(...chunk.map((r) => r.id));
          if (chunk.length < 4) break;
          const last = chunk[chunk.length - 1]!;
          after = { createdAt: last.createdAt, id: last.id };
        }
        expect(sizes).toEqual([4, 4, 1]);
        expect(seen).toHaveLength(9);
        expect(new Set(seen)).toEqual(new Set(records.map((r) => r.id)));
        // A cursor past the newest claims nothing; without one the owner renews its own leases.
        const newest = records[records.length - 1]!;
        expect(
          (
            await store.transactions.claimUnsettled('w', 10, 30_000, { createdAt: newest.createdAt, id: '~' })
          )._unsafeUnwrap(),
        ).toEqual([]);
        expect((await store.transactions.claimUnsettled('w', 10, 30_000))._unsafeUnwrap()).toHaveLength(9);
      });

      it('counts by kind', async () => {
        await store.transactions.insert(txRecord({ kind: 'mint' }, clock));
        await store.transactions.insert(txRecord({ kind: 'mint' }, clock));
        await store.transactions.insert(txRecord({ kind: 'donation' }, clock));
        expect((await store.transactions.countByKind!('mint'))._unsafeUnwrap()).toBe(2);
        expect((await store.transactions.countByKind!('airdrop'))._unsafeUnwrap()).toBe(0);
      });
    });

    describe('escrows', () => {
      it('stores and reads an escrow', async () => {
        const record = escrowRecord({}, clock);
        const result = (await store.escrows.insert(record))._unsafeUnwrap();
        expect(result).toEqual({ inserted: true, record });
        expect((await store.escrows.get(record.id))._unsafeUnwrap()).toEqual(record);
        expect((await store.escrows.get('esc_missing'))._unsafeUnwrap()).toBeNull();
      });

      it('returns the existing escrow of the same funding transaction', async () => {
        const first = escrowRecord({}, clock);
        await store.escrows.insert(first);
        const again = escrowRecord({ fundingTransactionId: first.fundingTransactionId, amount: 1n }, clock);
        const result = (await store.escrows.insert(again))._unsafeUnwrap();
        expect(result.inserted).toBe(false);
        expect(result.record).toEqual(first);
        expect((await store.escrows.get(again.id))._unsafeUnwrap()).toBeNull();
      });

      it('inserts one escrow per funding transaction under concurrency', async () => {
        const funding = randomSignature();
        const results = await Promise.all(
          Array.from({ length: 20 }, () =>
            unwrap(store.escrows.insert(escrowRecord({ fundingTransactionId: funding }, clock))),
          ),
        );
        expect(results.filter((r) => r.inserted)).toHaveLength(1);
        const winner = results.find((r) => r.inserted)!.record;
        for (const r of results) expect(r.record).toEqual(winner);
      });

      it('settles from held exactly once', async () => {
        const record = escrowRecord({ amount: U64_MAX }, clock);
        await store.escrows.insert(record);
        clock.advance(1_000);
        const settlement = randomSignature();
        expect((await store.escrows.settle(record.id, 'released', settlement))._unsafeUnwrap()).toBe(true);
        expect((await store.escrows.settle(record.id, 'refunded', randomSignature()))._unsafeUnwrap()).toBe(
          false,
        );
        const read = (await store.escrows.get(record.id))._unsafeUnwrap()!;
        expect(read.status).toBe('released');
        expect(read.settlementTransactionId).toBe(settlement);
        expect(read.amount).toBe(U64_MAX);
        expect(read.updatedAt).toEqual(clock.now());
        expect((await store.escrows.settle('esc_missing', 'released', settlement))._unsafeUnwrap()).toBe(
          false,
        );
      });

      it('lets one of concurrent release/refund win', async () => {
        const record = escrowRecord({}, clock);
        await store.escrows.insert(record);
        const attempts = Array.from({ length: 30 }, (_, i) =>
          i % 2 === 0 ? ('released' as const) : ('refunded' as const),
        );
        const results = await Promise.all(
          attempts.map((to) => store.escrows.settle(record.id, to, randomSignature())),
        );
        const won = results.map((r, i) => (r._unsafeUnwrap() ? attempts[i] : undefined)).filter(Boolean);
        expect(won).toHaveLength(1);
        expect((await store.escrows.get(record.id))._unsafeUnwrap()!.status).toBe(won[0]);
      });

      it('lists held escrows past their expiry, soonest first', async () => {
        const now = clock.now().getTime();
        const expiring = (ms: number, overrides: Partial<EscrowRecord> = {}) =>
          escrowRecord({ expiresAt: new Date(now + ms), ...overrides }, clock);
        const late = expiring(-1_000);
        const earliest = expiring(-60_000);
        const exactlyNow = expiring(0);
        const future = expiring(60_000);
        const settled = expiring(-120_000);
        for (const r of [late, future, exactlyNow, earliest, settled]) await store.escrows.insert(r);
        await store.escrows.settle(settled.id, 'refunded', randomSignature());

        const expired = (await store.escrows.listExpired(clock.now(), 10))._unsafeUnwrap();
        expect(expired.map((e) => e.id)).toEqual([earliest.id, late.id, exactlyNow.id]);
        expect((await store.escrows.listExpired(clock.now(), 1))._unsafeUnwrap().map((e) => e.id)).toEqual([
          earliest.id,
        ]);
      });
    });

    describe('idempotency', () => {
      it('lets the same request take over a claim abandoned for 30 s, but not a different one', async () => {
        const t0 = clock.now();
        expect((await store.idempotency.begin('api', 'crash', 'h', t0))._unsafeUnwrap().state).toBe(
          'started',
        );
        const soon = new Date(t0.getTime() + 29_000);
        expect((await store.idempotency.begin('api', 'crash', 'h', soon))._unsafeUnwrap().state).toBe(
          'in_progress',
        );
        const later = new Date(t0.getTime() + 30_000);
        expect((await store.idempotency.begin('api', 'crash', 'other', later))._unsafeUnwrap().state).toBe(
          'mismatch',
        );
        expect((await store.idempotency.begin('api', 'crash', 'h', later))._unsafeUnwrap().state).toBe(
          'started',
        );
        // The takeover restarts the window.
        expect((await store.idempotency.begin('api', 'crash', 'h', later))._unsafeUnwrap().state).toBe(
          'in_progress',
        );
      });

      it('claims a new key, then reports it in progress, then completed', async () => {
        const now = clock.now();
        expect((await store.idempotency.begin('api', 'k1', 'h1', now))._unsafeUnwrap()).toEqual({
          state: 'started',
        });
        expect((await store.idempotency.begin('api', 'k1', 'h1', now))._unsafeUnwrap()).toEqual({
          state: 'in_progress',
        });
        await store.idempotency.complete('api', 'k1', 201, '{"transactionId":"x"}');
        expect((await store.idempotency.begin('api', 'k1', 'h1', now))._unsafeUnwrap()).toEqual({
          state: 'completed',
          status: 201,
          body: '{"transactionId":"x"}',
        });
      });

      it('completes a burst of concurrent claims, each with its own answer, and leaves others alone', async () => {
        const now = clock.now();
        const keys = Array.from({ length: 40 }, (_, i) => `burst-${i}`);
        for (const key of keys) (await store.idempotency.begin('api', key, `h-${key}`, now))._unsafeUnwrap();
        (await store.idempotency.begin('api', 'released', 'h', now))._unsafeUnwrap();
        (await store.idempotency.release('api', 'released'))._unsafeUnwrap();
        const done = await Promise.all([
          ...keys.map((key, i) => store.idempotency.complete('api', key, 200 + (i % 3), `{"n":${i}}`)),
          // The same key twice in one burst: the first answer stays (a completed claim is final).
          store.idempotency.complete('api', keys[0]!, 500, '{"late":true}'),
          store.idempotency.complete('api', 'released', 200, '{}'),
        ]);
        for (const result of done) expect(result.isOk()).toBe(true);
        for (const [i, key] of keys.entries()) {
          expect((await store.idempotency.begin('api', key, `h-${key}`, now))._unsafeUnwrap()).toEqual({
            state: 'completed',
            status: 200 + (i % 3),
            body: `{"n":${i}}`,
          });
        }
        expect((await store.idempotency.begin('api', 'released', 'h', now))._unsafeUnwrap()).toEqual({
          state: 'started',
        });
      });

      it('reports a mismatch for the same key with another body, in progress or completed', async () => {
        const now = clock.now();
        await store.idempotency.begin('api', 'k1', 'h1', now);
        expect((await store.idempotency.begin('api', 'k1', 'h2', now))._unsafeUnwrap()).toEqual({
          state: 'mismatch',
        });
        await store.idempotency.complete('api', 'k1', 200, 'ok');
        expect((await store.idempotency.begin('api', 'k1', 'h2', now))._unsafeUnwrap()).toEqual({
          state: 'mismatch',
        });
      });

      it('keeps scopes apart', async () => {
        const now = clock.now();
        await store.idempotency.begin('client-a', 'k', 'h1', now);
        expect((await store.idempotency.begin('client-b', 'k', 'h2', now))._unsafeUnwrap()).toEqual({
          state: 'started',
        });
      });

      it('forgets a released claim but not a completed one', async () => {
        const now = clock.now();
        await store.idempotency.begin('api', 'k1', 'h1', now);
        await store.idempotency.release('api', 'k1');
        expect((await store.idempotency.begin('api', 'k1', 'h2', now))._unsafeUnwrap()).toEqual({
          state: 'started',
        });
        await store.idempotency.complete('api', 'k1', 200, 'done');
        await store.idempotency.release('api', 'k1');
        expect((await store.idempotency.begin('api', 'k1', 'h2', now))._unsafeUnwrap()).toEqual({
          state: 'completed',
          status: 200,
          body: 'done',
        });
      });

      it('honours a key for 24 hours and treats an older one as absent', async () => {
        const start = clock.now();
        await store.idempotency.begin('api', 'k1', 'h1', start);
        await store.idempotency.complete('api', 'k1', 200, 'first');
        const almost = new Date(start.getTime() + 24 * HOUR - 1);
        expect((await store.idempotency.begin('api', 'k1', 'h2', almost))._unsafeUnwrap()).toEqual({
          state: 'mismatch',
        });
        const later = new Date(start.getTime() + 24 * HOUR + 1);
        expect((await store.idempotency.begin('api', 'k1', 'h2', later))._unsafeUnwrap()).toEqual({
          state: 'started',
        });
        // The replacement is a fresh claim: in progress, with the new body's hash.
        expect((await store.idempotency.begin('api', 'k1', 'h2', later))._unsafeUnwrap()).toEqual({
          state: 'in_progress',
        });
        expect((await store.idempotency.begin('api', 'k1', 'h1', later))._unsafeUnwrap()).toEqual({
          state: 'mismatch',
        });
      });

      it('lets exactly one of concurrent claims start', async () => {
        const now = clock.now();
        const results = await Promise.all(
          Array.from({ length: 30 }, () => unwrap(store.idempotency.begin('api', 'race', 'h', now))),
        );
        expect(results.filter((r) => r.state === 'started')).toHaveLength(1);
        expect(results.filter((r) => r.state === 'in_progress')).toHaveLength(29);
      });

      it('purges keys created before the cutoff and says how many', async () => {
        const start = clock.now();
        await store.idempotency.begin('api', 'old1', 'h', start);
        await store.idempotency.begin('api', 'old2', 'h', start);
        await store.idempotency.complete('api', 'old2', 200, 'x');
        const later = new Date(start.getTime() + 2 * HOUR);
        await store.idempotency.begin('api', 'new', 'h', later);
        expect(
          (await store.idempotency.purgeOlderThan(new Date(start.getTime() + HOUR)))._unsafeUnwrap(),
        ).toBe(2);
        expect((await store.idempotency.begin('api', 'old1', 'other', later))._unsafeUnwrap()).toEqual({
          state: 'started',
        });
        expect((await store.idempotency.begin('api', 'new', 'h', later))._unsafeUnwrap()).toEqual({
          state: 'in_progress',
        });
        expect((await store.idempotency.purgeOlderThan(start))._unsafeUnwrap()).toBe(0);
      });
    });

    describe('api keys', () => {
      it('finds a key by its hash only', async () => {
        const createdAt = clock.now();
        (
          await store.apiKeys.insert({
            id: 'key_1',
            label: 'dev',
            tenant: DEFAULT_TENANT,
            hash: 'a'.repeat(64),
            createdAt,
          })
        )._unsafeUnwrap();
        expect((await store.apiKeys.findByHash('a'.repeat(64)))._unsafeUnwrap()).toEqual({
          id: 'key_1',
          label: 'dev',
          tenant: DEFAULT_TENANT,
          createdAt,
        });
        expect((await store.apiKeys.findByHash('b'.repeat(64)))._unsafeUnwrap()).toBeNull();
      });

      it('refuses a second key with the same hash without echoing it', async () => {
        const createdAt = clock.now();
        const hash = 'c'.repeat(64);
        const tenant = DEFAULT_TENANT;
        await store.apiKeys.insert({ id: 'key_1', label: 'one', tenant, hash, createdAt });
        const result = await store.apiKeys.insert({ id: 'key_2', label: 'two', tenant, hash, createdAt });
        expect(result.isErr()).toBe(true);
        expect(JSON.stringify(result._unsafeUnwrapErr())).not.toContain(hash);
      });
    });

    describe('tenants', () => {
      const A = 'tenant-a' as TenantId;
      const B = 'tenant-b' as TenantId;

      it('scopes transactions, mints and escrows to their tenant; unscoped reads see all', async () => {
        const escrow = escrowRecord({ tenant: A }, clock);
        const funding = txRecord({ tenant: A, escrowId: escrow.id, id: escrow.fundingTransactionId }, clock);
        (await store.transactions.insert(funding, { escrow }))._unsafeUnwrap();
        const minted = txRecord({ tenant: A, kind: 'mint', mint: randomPublicKey() }, clock);
        (await store.transactions.insert(minted))._unsafeUnwrap();

        expect((await store.transactions.get(funding.id, A))._unsafeUnwrap()).toEqual(funding);
        expect((await store.transactions.get(funding.id, B))._unsafeUnwrap()).toBeNull();
        expect((await store.transactions.get(funding.id))._unsafeUnwrap()?.tenant).toBe(A);

        expect((await store.transactions.findMint(minted.mint!, A))._unsafeUnwrap()?.id).toBe(minted.id);
        expect((await store.transactions.findMint(minted.mint!, B))._unsafeUnwrap()).toBeNull();
        expect((await store.transactions.findMint(minted.mint!))._unsafeUnwrap()?.id).toBe(minted.id);
        expect((await store.transactions.findMint(funding.to!))._unsafeUnwrap()).toBeNull();

        expect((await store.escrows.get(escrow.id, A))._unsafeUnwrap()).toEqual(escrow);
        expect((await store.escrows.get(escrow.id, B))._unsafeUnwrap()).toBeNull();
        expect((await store.escrows.get(escrow.id))._unsafeUnwrap()?.tenant).toBe(A);
      });

      it('keeps idempotency keys apart per scope (the tenant)', async () => {
        const now = clock.now();
        expect((await store.idempotency.begin(A, 'k', 'h', now))._unsafeUnwrap().state).toBe('started');
        expect((await store.idempotency.begin(B, 'k', 'other', now))._unsafeUnwrap().state).toBe('started');
      });

      it('has the default tenant, allowed to pay from the treasury; creates others once', async () => {
        expect((await store.tenants.get(DEFAULT_TENANT))._unsafeUnwrap()?.treasuryPayments).toBe(true);
        expect((await store.tenants.get(A))._unsafeUnwrap()).toBeNull();
        const first = (
          await store.tenants.ensure(A, { treasuryPayments: false }, clock.now())
        )._unsafeUnwrap();
        expect(first).toEqual({
          created: true,
          tenant: { id: A, treasuryPayments: false, createdAt: clock.now() },
        });
        clock.advance(1_000);
        const again = (
          await store.tenants.ensure(A, { treasuryPayments: true }, clock.now())
        )._unsafeUnwrap();
        expect(again).toEqual({ created: false, tenant: first.tenant });
        expect(
          (await store.tenants.update(A, { treasuryPayments: true }))._unsafeUnwrap()?.treasuryPayments,
        ).toBe(true);
        expect((await store.tenants.update(B, { treasuryPayments: true }))._unsafeUnwrap()).toBeNull();
        expect((await store.tenants.list())._unsafeUnwrap().map((t) => t.id)).toContain(A);
      });

      it('keeps a key’s tenant, prefix, revocation, expiry and last use', async () => {
        (await store.tenants.ensure(A, { treasuryPayments: false }, clock.now()))._unsafeUnwrap();
        const createdAt = clock.now();
        const base = { label: 'k', tenant: A, createdAt };
        (
          await store.apiKeys.insert({ ...base, id: 'key_a', prefix: 'ta_abcdefgh', hash: 'd'.repeat(64) })
        )._unsafeUnwrap();
        clock.advance(1);
        (
          await store.apiKeys.insert({ ...base, id: 'key_b', createdAt: clock.now(), hash: 'e'.repeat(64) })
        )._unsafeUnwrap();
        const unknownTenant = await store.apiKeys.insert({
          ...base,
          id: 'key_c',
          tenant: B,
          hash: 'f'.repeat(64),
        });
        expect(unknownTenant.isErr()).toBe(true);

        expect((await store.apiKeys.get('key_a'))._unsafeUnwrap()).toEqual({
          id: 'key_a',
          label: 'k',
          tenant: A,
          prefix: 'ta_abcdefgh',
          createdAt,
        });
        expect((await store.apiKeys.list({ tenant: A }))._unsafeUnwrap().map((k) => k.id)).toEqual([
          'key_a',
          'key_b',
        ]);
        expect((await store.apiKeys.list({ tenant: B }))._unsafeUnwrap()).toEqual([]);
        expect(JSON.stringify((await store.apiKeys.list())._unsafeUnwrap())).not.toContain('d'.repeat(64));

        const t1 = new Date(createdAt.getTime() + 10_000);
        expect((await store.apiKeys.revoke('key_a', t1))._unsafeUnwrap()?.revokedAt).toEqual(t1);
        const t2 = new Date(t1.getTime() + 10_000);
        expect((await store.apiKeys.revoke('key_a', t2))._unsafeUnwrap()?.revokedAt).toEqual(t1);
        expect((await store.apiKeys.findByHash('d'.repeat(64)))._unsafeUnwrap()?.revokedAt).toEqual(t1);
        expect((await store.apiKeys.revoke('key_missing', t1))._unsafeUnwrap()).toBeNull();

        expect((await store.apiKeys.expire('key_b', t2))._unsafeUnwrap()?.expiresAt).toEqual(t2);
        expect(
          (await store.apiKeys.expire('key_b', new Date(t2.getTime() + 5_000)))._unsafeUnwrap()?.expiresAt,
        ).toEqual(t2);
        expect((await store.apiKeys.expire('key_b', t1))._unsafeUnwrap()?.expiresAt).toEqual(t1);
        expect((await store.apiKeys.expire('key_missing', t1))._unsafeUnwrap()).toBeNull();

        (await store.apiKeys.touch('key_b', t1))._unsafeUnwrap();
        (await store.apiKeys.touch('key_b', new Date(t1.getTime() + 30_000)))._unsafeUnwrap();
        expect((await store.apiKeys.get('key_b'))._unsafeUnwrap()?.lastUsedAt).toEqual(t1);
        const later = new Date(t1.getTime() + 61_000);
        (await store.apiKeys.touch('key_b', later))._unsafeUnwrap();
        expect((await store.apiKeys.get('key_b'))._unsafeUnwrap()?.lastUsedAt).toEqual(later);
      });
    });

    if (variant.sql) {
      describe('driver failures', () => {
        it('become STORE_UNAVAILABLE without SQL or values in the error', async () => {
          const broken = createPgStore({
            query: () =>
              Promise.reject(
                Object.assign(new Error('relation "transactions" does not exist: SELECT secret'), {
                  code: '42P01',
                  query: 'SELECT secret',
                  params: ['s3cr3t'],
                }),
              ),
          });
          const result = await broken.transactions.get(randomSignature());
          const error = result._unsafeUnwrapErr();
          expect(error.code).toBe('STORE_UNAVAILABLE');
          expect(JSON.stringify(error)).not.toMatch(/SELECT|s3cr3t|secret/);
          expect(error.context).toMatchObject({ operation: 'transactions.get', sqlState: '42P01' });
        });

        it('notifies every listener on the database when a key is revoked or expires, or a tenant changes', async () => {
          const sql = variant.sql!();
          const notices: string[] = [];
          const stop = await sql.listen!(KEY_CHANGES_CHANNEL, {
            onNotice: (payload) => notices.push(payload),
            onReset: () => {},
          });
          const id = `key_${crypto.randomUUID()}`;
          try {
            (
              await store.apiKeys.insert({
                id,
                label: 'n',
                tenant: DEFAULT_TENANT,
                hash: randomSignature(),
                createdAt: clock.now(),
              })
            )._unsafeUnwrap();
            (await store.apiKeys.revoke(id, clock.now()))._unsafeUnwrap();
            (await store.apiKeys.expire(id, clock.now()))._unsafeUnwrap();
            (await store.tenants.update(DEFAULT_TENANT, { treasuryPayments: true }))._unsafeUnwrap();
            const mine = () => notices.filter((n) => n === `key:${id}` || n === 'tenant:default');
            const until = Date.now() + 5_000;
            while (mine().length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
            expect(mine()).toEqual([`key:${id}`, `key:${id}`, 'tenant:default']);
          } finally {
            await stop();
          }
        });

        it('reports a real driver error (unknown table) the same way', async () => {
          const sql = variant.sql!();
          const store2 = createPgStore({
            query: (text, params) => sql.query(text.replace(/\btransactions\b/g, 'no_such_table'), params),
          });
          const error = (await store2.transactions.listUnsettled(10))._unsafeUnwrapErr();
          expect(error.code).toBe('STORE_UNAVAILABLE');
          expect(error.message).not.toMatch(/no_such_table|SELECT/i);
        });
      });
    }
  });
});
