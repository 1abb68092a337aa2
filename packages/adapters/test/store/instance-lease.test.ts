import type { DomainError, IdempotencyBegin } from '@token-actions/core';
import type { ResultAsync } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgInstanceLease, createPgStore, type SqlClient } from '../../src/store/index.js';
import { createMigratedPglite, createPostgresSchema, POSTGRES_REACHABLE } from './harness.js';

const variants = [
  {
    name: 'PGlite',
    skip: false,
    open: async () => createMigratedPglite().then((sql) => ({ sql, close: () => sql.close() })),
  },
  {
    name: 'PostgreSQL',
    skip: !POSTGRES_REACHABLE,
    open: async () => createPostgresSchema().then((s) => ({ sql: s.sql, close: () => s.drop() })),
  },
];

/**
 * A key left in progress by a process that died is resumed as soon as that process's lease lapses,
 * not after the 30 s abandonment window; a live owner keeps its claim.
 */
describe.each(variants)('idempotency claims and instance leases: $name', (variant) => {
  let opened: { sql: SqlClient; close(): Promise<void> };
  beforeAll(async () => {
    if (!variant.skip) opened = await variant.open();
  }, 60_000);
  afterAll(async () => opened?.close());

  const LEASE_MS = 3_000;
  const processes = (t0: Date) => {
    const a = createPgInstanceLease(opened.sql, { id: `proc_a_${t0.getTime()}`, leaseMs: LEASE_MS });
    const b = createPgInstanceLease(opened.sql, { id: `proc_b_${t0.getTime()}`, leaseMs: LEASE_MS });
    return {
      a,
      b,
      storeA: createPgStore(opened.sql, { instanceId: a.id, idempotencyAbandonAfterMs: 30_000 }),
      storeB: createPgStore(opened.sql, { instanceId: b.id, idempotencyAbandonAfterMs: 30_000 }),
    };
  };
  const at = (t0: Date, ms: number) => new Date(t0.getTime() + ms);
  const stateOf = async (p: ResultAsync<IdempotencyBegin, DomainError>) => (await p)._unsafeUnwrap().state;

  it.skipIf(variant.skip)(
    'takes over a claim whose owner stopped renewing, once its lease lapses',
    async () => {
      const t0 = new Date(Date.UTC(2030, 0, 1));
      const { a, b, storeA, storeB } = processes(t0);
      await a.renew(t0);
      await b.renew(t0);
      expect(await stateOf(storeA.idempotency.begin('api', 'k', 'h', t0))).toBe('started');
      // A keeps renewing: B is told to wait, even long after A's first lease would have lapsed.
      await a.renew(at(t0, 2_000));
      expect(await stateOf(storeB.idempotency.begin('api', 'k', 'h', at(t0, 4_000)))).toBe('in_progress');
      // A dies (no more renewals): the claim is B's once A's lease has lapsed, well before 30 s.
      expect(await stateOf(storeB.idempotency.begin('api', 'k', 'h', at(t0, 4_999)))).toBe('in_progress');
      expect(await stateOf(storeB.idempotency.begin('api', 'k', 'other', at(t0, 5_001)))).toBe('mismatch');
      expect(await stateOf(storeB.idempotency.begin('api', 'k', 'h', at(t0, 5_001)))).toBe('started');
      // Now B owns it and is alive: another attempt (even B's own) waits.
      await b.renew(at(t0, 5_001));
      expect(await stateOf(storeA.idempotency.begin('api', 'k', 'h', at(t0, 5_500)))).toBe('in_progress');
      expect(await stateOf(storeB.idempotency.begin('api', 'k', 'h', at(t0, 5_500)))).toBe('in_progress');
    },
  );

  it.skipIf(variant.skip)(
    'a released lease (graceful stop) or one ended by a restart frees its claims at once',
    async () => {
      const t0 = new Date(Date.UTC(2030, 0, 2));
      const { a, b, storeA, storeB } = processes(t0);
      await a.renew(t0);
      expect(await stateOf(storeA.idempotency.begin('api', 'r', 'h', t0))).toBe('started');
      expect(await stateOf(storeB.idempotency.begin('api', 'r', 'h', at(t0, 10)))).toBe('in_progress');
      await b.renew(at(t0, 20));
      await b.endOthers();
      expect(await stateOf(storeB.idempotency.begin('api', 'r', 'h', at(t0, 30)))).toBe('started');

      expect(await stateOf(storeB.idempotency.begin('api', 's', 'h', at(t0, 40)))).toBe('started');
      await b.release();
      expect(await stateOf(storeA.idempotency.begin('api', 's', 'h', at(t0, 50)))).toBe('started');
    },
  );

  it.skipIf(variant.skip)('a completed answer is replayed whoever asks, live owner or not', async () => {
    const t0 = new Date(Date.UTC(2030, 0, 3));
    const { a, storeA, storeB } = processes(t0);
    await a.renew(t0);
    expect(await stateOf(storeA.idempotency.begin('api', 'c', 'h', t0))).toBe('started');
    (await storeA.idempotency.complete('api', 'c', 200, '{"ok":true}'))._unsafeUnwrap();
    expect((await storeB.idempotency.begin('api', 'c', 'h', at(t0, 60_000)))._unsafeUnwrap()).toEqual({
      state: 'completed',
      status: 200,
      body: '{"ok":true}',
    });
  });
});
