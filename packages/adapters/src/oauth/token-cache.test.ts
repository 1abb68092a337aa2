import type { OAuthStore, OAuthTokenRecord, PublicKey } from '@token-actions/core';
import { createMemoryOAuthStore } from '@token-actions/core/testing';
import { ResultAsync } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresSchema, POSTGRES_REACHABLE } from '../../test/store/harness.js';
import type { KeyChangeHandlers } from '../store/cache.js';
import type { SqlClient } from '../store/pg/sql.js';
import { createPgOAuthStore, OAUTH_TOKEN_CHANGES_CHANNEL } from './pg-store.js';
import { withAccessTokenCache } from './token-cache.js';

const wallet = '11111111111111111111111111111111' as PublicKey;
const t0 = new Date('2025-01-01T00:00:00.000Z');

function token(hash: string, kind: 'access' | 'refresh', grantId: string): OAuthTokenRecord {
  return {
    tokenHash: hash,
    kind,
    grantId,
    clientId: 'client-a',
    subject: wallet,
    scope: ['read'],
    expiresAt: new Date(t0.getTime() + 3_600_000),
    createdAt: t0,
  };
}

/** The store, counting the reads that reached it. */
function counting(store: OAuthStore): OAuthStore & { reads: number } {
  const counted = {
    ...store,
    reads: 0,
    findToken(hash: string) {
      counted.reads++;
      return store.findToken(hash);
    },
  };
  return counted;
}

/** A notice source the test drives, standing in for PostgreSQL LISTEN. */
function notices() {
  let handlers: KeyChangeHandlers | undefined;
  return {
    subscribe: async (h: KeyChangeHandlers) => {
      handlers = h;
      return async () => {};
    },
    send: (payload: string) => handlers?.onNotice(payload),
    reset: () => handlers?.onReset(),
  };
}

const u = <T>(r: { _unsafeUnwrap(): T }) => r._unsafeUnwrap();

describe('access-token cache', () => {
  it('serves an active access token from memory until its TTL; never a refresh token', async () => {
    const inner = counting(createMemoryOAuthStore());
    u(await inner.issueTokens([token('a1', 'access', 'g1'), token('r1', 'refresh', 'g1')]));
    let clock = 0;
    const { store } = withAccessTokenCache(inner, { ttlMs: 1_000, now: () => clock });
    for (let i = 0; i < 5; i++) expect(u(await store.findToken('a1'))).toMatchObject({ kind: 'access' });
    expect(inner.reads).toBe(1);
    for (let i = 0; i < 3; i++) expect(u(await store.findToken('r1'))).toMatchObject({ kind: 'refresh' });
    expect(inner.reads).toBe(4);
    expect(u(await store.findToken('unknown'))).toBeNull();
    expect(u(await store.findToken('unknown'))).toBeNull();
    expect(inner.reads).toBe(6);
    clock = 1_001;
    u(await store.findToken('a1'));
    expect(inner.reads).toBe(7);
  });

  it('drops a token revoked through it, and every token of a grant revoked through it, at once', async () => {
    const inner = createMemoryOAuthStore();
    u(
      await inner.issueTokens([
        token('a1', 'access', 'g1'),
        token('a2', 'access', 'g1'),
        token('a3', 'access', 'g2'),
      ]),
    );
    const { store } = withAccessTokenCache(inner, { ttlMs: 600_000 });
    for (const hash of ['a1', 'a2', 'a3']) expect(u(await store.findToken(hash))?.revokedAt).toBeUndefined();
    u(await store.revokeToken('a1', t0));
    expect(u(await store.findToken('a1'))?.revokedAt).toBeDefined();
    u(await store.revokeGrant('g2', t0));
    expect(u(await store.findToken('a3'))?.revokedAt).toBeDefined();
  });

  it("drops a grant's tokens when another process's notice arrives, and everything on a reset", async () => {
    const inner = createMemoryOAuthStore();
    u(await inner.issueTokens([token('a1', 'access', 'g1'), token('a2', 'access', 'g2')]));
    const source = notices();
    const { store } = withAccessTokenCache(inner, { ttlMs: 600_000, subscribe: source.subscribe });
    u(await store.findToken('a1'));
    await new Promise((r) => setTimeout(r, 0)); // the subscription is live
    u(await store.findToken('a1'));
    u(await store.findToken('a2'));
    // Another process revokes behind this cache's back, then notifies.
    u(await inner.revokeGrant('g1', t0));
    u(await inner.revokeGrant('g2', t0));
    expect(u(await store.findToken('a1'))?.revokedAt).toBeUndefined();
    source.send('grant:g1');
    expect(u(await store.findToken('a1'))?.revokedAt).toBeDefined();
    expect(u(await store.findToken('a2'))?.revokedAt).toBeUndefined();
    source.reset();
    expect(u(await store.findToken('a2'))?.revokedAt).toBeDefined();
  });

  it('does not keep a read that a notice overtook while it was in flight', async () => {
    const inner = createMemoryOAuthStore();
    u(await inner.issueTokens([token('a1', 'access', 'g1'), token('x', 'access', 'gx')]));
    const source = notices();
    let release!: () => void;
    const hold = new Promise<void>((r) => {
      release = r;
    });
    let slow = false;
    const held: OAuthStore = {
      ...inner,
      // Reads the store at once, answers only once released.
      findToken: (hash) =>
        inner
          .findToken(hash)
          .andThen((record) =>
            ResultAsync.fromSafePromise(slow ? hold.then(() => record) : Promise.resolve(record)),
          ),
    };
    const { store } = withAccessTokenCache(held, { ttlMs: 600_000, subscribe: source.subscribe });
    u(await store.findToken('x'));
    await new Promise((r) => setTimeout(r, 0)); // the subscription is live
    slow = true;
    const inFlight = store.findToken('a1');
    u(await inner.revokeGrant('g1', t0));
    source.send('grant:g1');
    release();
    // Read before the revocation, so it answers unrevoked; but it was not kept.
    expect(u(await inFlight)?.revokedAt).toBeUndefined();
    expect(u(await store.findToken('a1'))?.revokedAt).toBeDefined();
  });
});

describe.skipIf(!POSTGRES_REACHABLE)('access-token cache across processes (PostgreSQL)', () => {
  let schema: Awaited<ReturnType<typeof createPostgresSchema>>;
  let other: SqlClient;
  beforeAll(async () => {
    schema = await createPostgresSchema();
    other = schema.sql;
  }, 60_000);
  afterAll(async () => {
    await schema?.drop();
  });

  it('a revocation by another process reaches this one through its notice, not the TTL', async () => {
    const a = withAccessTokenCache(createPgOAuthStore(schema.sql), {
      ttlMs: 600_000,
      subscribe: (handlers) => schema.sql.listen!(OAUTH_TOKEN_CHANGES_CHANNEL, handlers),
    });
    const b = createPgOAuthStore(other);
    const grant = `g-${Date.now()}`;
    u(
      await b.issueTokens([
        token(`${grant}-a1`, 'access', grant),
        token(`${grant}-a2`, 'access', `${grant}-2`),
      ]),
    );
    // Cached once the subscription is live.
    u(await a.store.findToken(`${grant}-a1`));
    await new Promise((r) => setTimeout(r, 200));
    u(await a.store.findToken(`${grant}-a1`));
    u(await a.store.findToken(`${grant}-a2`));

    u(await b.revokeToken(`${grant}-a1`, new Date()));
    u(await b.revokeGrant(`${grant}-2`, new Date()));
    const started = Date.now();
    for (;;) {
      const one = u(await a.store.findToken(`${grant}-a1`));
      const two = u(await a.store.findToken(`${grant}-a2`));
      if (one?.revokedAt && two?.revokedAt) break;
      if (Date.now() - started > 5_000) throw new Error('the revocations never reached the cache');
      await new Promise((r) => setTimeout(r, 10));
    }
    await a.close();
  });
});
