import { domainError, encodeBase58, type Signature, type SwapStore } from '@token-actions/core';
import { err, ok } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPgSwapStore,
  createPostgresClient,
  POOL_CHANGES_CHANNEL,
  type SqlClient,
  type TransactionExecutor,
  withPoolCache,
} from '../../src/store/index.js';
import { createPostgresSchema, DATABASE_URL, POSTGRES_REACHABLE, randomPublicKey } from '../store/harness.js';

const u = <T>(r: { _unsafeUnwrap(): T }) => r._unsafeUnwrap();

/** Counts the statements a client runs, so a test can tell a read served from memory. */
function counting(sql: SqlClient): SqlClient & { statements: number } {
  const counted = {
    ...sql,
    statements: 0,
    query<Row>(text: string, params?: unknown[]) {
      counted.statements++;
      return sql.query<Row>(text, params);
    },
    // A history page is read in a transaction (with its pool, in one snapshot): count those too.
    transaction<T>(fn: (tx: TransactionExecutor) => Promise<T>) {
      return sql.transaction((tx) =>
        fn({
          ...tx,
          query<Row>(text: string, params?: unknown[]) {
            counted.statements++;
            return tx.query<Row>(text, params);
          },
          send(text: string, params?: unknown[]) {
            counted.statements++;
            tx.send(text, params);
          },
        }),
      );
    },
  };
  return counted as SqlClient & { statements: number };
}

const take =
  (id: string, out: bigint) => (pools: readonly { id: string; reserveB: bigint; reservedB: bigint }[]) => {
    const pool = pools.find((p) => p.id === id)!;
    if (pool.reserveB - pool.reservedB < out) return err(domainError('INSUFFICIENT_LIQUIDITY', 'not enough'));
    return ok({
      hops: [
        { pool: id, inputToken: 'SOL', outputToken: 'USDC', inAmount: 1_000n, outAmount: out, feeAmount: 3n },
      ],
      outAmount: out,
      minOutAmount: out,
      feeAmount: 3n,
      priceImpactPpm: 10n,
    });
  };

async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

// Two servers on one PostgreSQL database: A serves quotes from its cache, B writes the book.
describe.skipIf(!POSTGRES_REACHABLE)('pool cache across processes (PostgreSQL)', () => {
  let schema: Awaited<ReturnType<typeof createPostgresSchema>>;
  let otherSql: SqlClient;
  let sqlA: SqlClient & { statements: number };
  let cacheA: ReturnType<typeof withPoolCache>;
  beforeAll(async () => {
    schema = await createPostgresSchema();
    sqlA = counting(schema.sql);
    otherSql = createPostgresClient({ connectionString: DATABASE_URL, schema: schema.schema, max: 4 });
    // A long TTL: only a change notice can make A see B's writes within the test.
    cacheA = withPoolCache(createPgSwapStore(sqlA), {
      ttlMs: 600_000,
      subscribe: (handlers) => schema.sql.listen!(POOL_CHANGES_CHANNEL, handlers),
    });
  }, 60_000);
  afterAll(async () => {
    await cacheA?.close();
    await otherSql?.close();
    await schema?.drop();
  });

  it('serves reads from memory and sees every write of another process through its notice', async () => {
    const a = cacheA.swaps;
    const b = createPgSwapStore(otherSql);
    const id = `SOL-USDC-${Date.now()}`;
    await openPool(b, id);
    // The first read subscribes; reads are cached once the subscription is live.
    await eventually(async () => {
      u(await a.getPool(id));
      const before = sqlA.statements;
      u(await a.getPool(id));
      return sqlA.statements === before;
    });
    const before = sqlA.statements;
    for (let i = 0; i < 50; i++) {
      expect(u(await a.getPool(id))!.reservedB).toBe(0n);
      expect(u(await a.history(id, { page: 1 }, 20)).total).toBe(0);
    }
    // 100 reads, one miss: the page's transaction (isolation level, pool, items).
    expect(sqlA.statements - before).toBeLessThanOrEqual(3);

    const r = u(await b.reserve({ request: request(), poolIds: [id], plan: take(id, 400n) }));
    await eventually(async () => u(await a.getPool(id))!.reservedB === 400n);

    const txId = encodeBase58(crypto.getRandomValues(new Uint8Array(64))) as Signature;
    u(await b.markSubmitted(r.requestId, txId, Uint8Array.from([1])));
    await eventually(async () => u(await a.history(id, { page: 1 }, 20)).total === 1);
    expect(u(await a.history(id, { page: 1 }, 20)).items[0]).toMatchObject({ status: 'submitted' });

    u(await b.settle(r.requestId, 'landed'));
    await eventually(async () => u(await a.getPool(id))!.reserveB === 999_600n);
    expect(u(await a.getPool(id))).toMatchObject({ reservedB: 0n, reserveA: 5_001_000n });
    // Separate reads may straddle the notice (a miss reads the new state while a hit still holds
    // the old one until the notice lands); one page is always one snapshot, its pool included.
    await eventually(async () => u(await a.history(id, { page: 1 }, 20)).items[0]?.status === 'landed');
    expect(u(await a.history(id, { page: 1 }, 20)).pool).toMatchObject({ reserveB: 999_600n, reservedB: 0n });
  });

  it('drops its own state as soon as its own write returns, before any notice', async () => {
    const a = cacheA.swaps;
    const id = `SOL-USDC-own-${Date.now()}`;
    await openPool(a, id);
    u(await a.getPool(id));
    u(await a.reserve({ request: request(), poolIds: [id], plan: take(id, 250n) }));
    expect(u(await a.getPool(id))!.reservedB).toBe(250n);
  });

  it('keeps a pool authority for good once read, through every reservation', async () => {
    const a = cacheA.swaps;
    const b = createPgSwapStore(otherSql);
    const id = `SOL-USDC-authority-${Date.now()}`;
    expect(u(await a.poolAuthority(id))).toBeNull();
    const { pool } = await openPool(b, id);
    // Not booked was not remembered: the pool booked since is found.
    expect(u(await a.poolAuthority(id))).toBe(pool.authority);
    const before = sqlA.statements;
    for (let i = 0; i < 5; i++) {
      u(await a.reserve({ request: request(), poolIds: [id], plan: take(id, 10n) }));
      u(await b.reserve({ request: request(), poolIds: [id], plan: take(id, 10n) }));
      expect(u(await a.poolAuthority(id))).toBe(pool.authority);
    }
    // A's statements are its own five reservations' (each the same count); no authority read.
    const reservations = sqlA.statements - before;
    u(await a.reserve({ request: request(), poolIds: [id], plan: take(id, 10n) }));
    expect(reservations).toBe(5 * (sqlA.statements - before - reservations));
    // Booking the same id again keeps the first authority, so what is held stays true.
    const again = await openPool(b, id);
    expect(again.created).toBe(false);
    expect(u(await a.poolAuthority(id))).toBe(pool.authority);
  });
});

const openPool = async (swaps: SwapStore, id: string) =>
  u(
    await swaps.ensurePool({
      id,
      tokenA: 'SOL',
      tokenB: 'USDC',
      reserveA: 5_000_000n,
      reserveB: 1_000_000n,
      feeBps: 30,
      authority: randomPublicKey(),
    }),
  );

let n = 0;
function request() {
  return {
    requestId: `swp_cache_${++n}_${Math.random().toString(36).slice(2)}`,
    source: 'project' as const,
    provider: 'pool',
    clientId: 'client-cache',
    user: randomPublicKey(),
    inputToken: 'SOL',
    outputToken: 'USDC',
    inAmount: 1_000n,
    slippageBps: 50,
    expiresAt: new Date(Date.now() + 60_000),
  };
}
