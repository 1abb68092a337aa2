import {
  DEFAULT_TENANT,
  type Signature,
  type StorePort,
  type TenantId,
  type TransactionRecord,
} from '@token-actions/core';
import { createInMemoryStore } from '@token-actions/core/testing';
import { ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import {
  type KeyChangeHandlers,
  withApiKeyCache,
  withSettledTransactionCache,
} from '../../src/store/index.js';

const record = (id: string): TransactionRecord => ({
  id: id as Signature,
  tenant: DEFAULT_TENANT,
  kind: 'donation',
  status: 'pending',
  computeUnitPrice: 0n,
  computeUnitLimit: 1,
  feeLamports: 5_000n,
  wire: new Uint8Array([1]),
  blockhash: 'h',
  lastValidBlockHeight: 10n,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

describe('settled-transaction cache', () => {
  it('reads unsettled records through and serves settled ones from memory', async () => {
    const inner = createInMemoryStore();
    let reads = 0;
    const counting = {
      ...inner,
      transactions: {
        ...inner.transactions,
        get: (id: Signature, tenant?: TenantId) => {
          reads++;
          return inner.transactions.get(id, tenant);
        },
      },
    };
    const store = withSettledTransactionCache(counting);
    await store.transactions.insert(record('a'));

    expect((await store.transactions.get('a' as Signature))._unsafeUnwrap()?.status).toBe('pending');
    expect((await store.transactions.get('a' as Signature))._unsafeUnwrap()?.status).toBe('pending');
    expect(reads).toBe(2);

    await store.transactions.transition('a' as Signature, 'pending', 'processed');
    expect((await store.transactions.get('a' as Signature))._unsafeUnwrap()?.status).toBe('processed');
    await store.transactions.transition('a' as Signature, 'processed', 'finalized');
    expect((await store.transactions.get('a' as Signature))._unsafeUnwrap()?.status).toBe('finalized');
    const before = reads;
    for (let i = 0; i < 5; i++)
      expect((await store.transactions.get('a' as Signature))._unsafeUnwrap()?.status).toBe('finalized');
    expect(reads).toBe(before);
  });

  it('is bounded', async () => {
    const inner = createInMemoryStore();
    const store = withSettledTransactionCache(inner, 2);
    for (const id of ['a', 'b', 'c']) {
      await store.transactions.insert({ ...record(id), status: 'finalized' });
      await store.transactions.get(id as Signature);
    }
    expect((await store.transactions.get('a' as Signature))._unsafeUnwrap()?.id).toBe('a');
  });

  it('scopes a hit to its tenant, like the store', async () => {
    const store = withSettledTransactionCache(createInMemoryStore());
    await store.transactions.insert({ ...record('t'), status: 'finalized' });
    expect((await store.transactions.get('t' as Signature, DEFAULT_TENANT))._unsafeUnwrap()?.id).toBe('t');
    expect((await store.transactions.get('t' as Signature, 'other' as TenantId))._unsafeUnwrap()).toBeNull();
  });
});

describe('API-key cache', () => {
  async function setup(ttlMs = 1_000) {
    const inner = createInMemoryStore();
    let reads = 0;
    const counting: StorePort = {
      ...inner,
      apiKeys: {
        ...inner.apiKeys,
        findByHash: (hash) => {
          reads++;
          return inner.apiKeys.findByHash(hash);
        },
      },
    };
    let handlers: KeyChangeHandlers | undefined;
    let time = 0;
    const cached = withApiKeyCache(counting, {
      ttlMs,
      now: () => time,
      subscribe: async (h) => {
        handlers = h;
        return async () => {};
      },
    });
    const key = { id: 'key_1', label: 'k', tenant: DEFAULT_TENANT, createdAt: new Date(0), hash: 'x' };
    (await inner.apiKeys.insert(key))._unsafeUnwrap();
    // The first read starts the subscription; what it reads is not cached (see the test below).
    await cached.store.apiKeys.findByHash('warm-up');
    reads = 0;
    return {
      inner,
      store: cached.store,
      reads: () => reads,
      notify: (payload: string) => handlers?.onNotice(payload),
      reset: () => handlers?.onReset(),
      tick: (ms: number) => {
        time += ms;
      },
    };
  }

  it('serves a verified key from memory for its TTL, then reads it again', async () => {
    const t = await setup();
    for (let i = 0; i < 3; i++)
      expect((await t.store.apiKeys.findByHash('x'))._unsafeUnwrap()?.id).toBe('key_1');
    expect(t.reads()).toBe(1);
    t.tick(1_001);
    await t.store.apiKeys.findByHash('x');
    expect(t.reads()).toBe(2);
  });

  it('never caches a miss', async () => {
    const t = await setup();
    await t.store.apiKeys.findByHash('nope');
    await t.store.apiKeys.findByHash('nope');
    expect(t.reads()).toBe(2);
  });

  it('drops a key revoked or expired through it at once', async () => {
    const t = await setup(60_000);
    await t.store.apiKeys.findByHash('x');
    (await t.store.apiKeys.revoke('key_1', new Date(5)))._unsafeUnwrap();
    expect((await t.store.apiKeys.findByHash('x'))._unsafeUnwrap()?.revokedAt).toEqual(new Date(5));
    (await t.store.apiKeys.expire('key_1', new Date(6)))._unsafeUnwrap();
    expect((await t.store.apiKeys.findByHash('x'))._unsafeUnwrap()?.expiresAt).toEqual(new Date(6));
  });

  it('drops a key another process revoked when its notice arrives, and everything on a reset', async () => {
    const t = await setup(60_000);
    await t.store.apiKeys.findByHash('x');
    (await t.inner.apiKeys.revoke('key_1', new Date(7)))._unsafeUnwrap();
    expect((await t.store.apiKeys.findByHash('x'))._unsafeUnwrap()?.revokedAt).toBeUndefined();
    t.notify('key:key_1');
    expect((await t.store.apiKeys.findByHash('x'))._unsafeUnwrap()?.revokedAt).toEqual(new Date(7));

    (await t.inner.apiKeys.expire('key_1', new Date(8)))._unsafeUnwrap();
    t.reset();
    expect((await t.store.apiKeys.findByHash('x'))._unsafeUnwrap()?.expiresAt).toEqual(new Date(8));
  });

  it('caches nothing read before the notices are up, nor a read that a reset overtook', async () => {
    const inner = createInMemoryStore();
    const key = { id: 'key_2', label: 'k', tenant: DEFAULT_TENANT, createdAt: new Date(0), hash: 'y' };
    (await inner.apiKeys.insert(key))._unsafeUnwrap();
    let up: (() => void) | undefined;
    let handlers: KeyChangeHandlers | undefined;
    const cached = withApiKeyCache(inner, {
      ttlMs: 60_000,
      subscribe: (h) => {
        handlers = h;
        return new Promise((resolve) => {
          up = () => resolve(async () => {});
        });
      },
    });
    // Read while LISTEN is still connecting; another process revokes, and its notice is lost.
    expect((await cached.store.apiKeys.findByHash('y'))._unsafeUnwrap()?.revokedAt).toBeUndefined();
    (await inner.apiKeys.revoke('key_2', new Date(9)))._unsafeUnwrap();
    up?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await cached.store.apiKeys.findByHash('y'))._unsafeUnwrap()?.revokedAt).toEqual(new Date(9));

    // A read in flight when notices may have been lost (reset) is not cached either.
    (await inner.apiKeys.insert({ ...key, id: 'key_3', hash: 'z' }))._unsafeUnwrap();
    const inFlight = cached.store.apiKeys.findByHash('z');
    handlers?.onReset();
    await inFlight;
    (await inner.apiKeys.revoke('key_3', new Date(10)))._unsafeUnwrap();
    expect((await cached.store.apiKeys.findByHash('z'))._unsafeUnwrap()?.revokedAt).toEqual(new Date(10));
  });

  it("does not cache a read that its key's revocation notice overtook in flight", async () => {
    const inner = createInMemoryStore();
    const key = { id: 'key_4', label: 'k', tenant: DEFAULT_TENANT, createdAt: new Date(0), hash: 'w' };
    (await inner.apiKeys.insert(key))._unsafeUnwrap();
    let release: (() => void) | undefined;
    let handlers: KeyChangeHandlers | undefined;
    const slow: StorePort = {
      ...inner,
      apiKeys: {
        ...inner.apiKeys,
        // The row is read now; the answer arrives when the test releases it.
        findByHash: (hash) =>
          inner.apiKeys.findByHash(hash).andThen((record) =>
            ResultAsync.fromSafePromise(
              new Promise<typeof record>((resolve) => {
                release = () => resolve(record);
              }),
            ),
          ),
      },
    };
    const cached = withApiKeyCache(slow, {
      ttlMs: 60_000,
      subscribe: async (h) => {
        handlers = h;
        return async () => {};
      },
    });
    await cached.store.tenants.get(DEFAULT_TENANT); // starts the subscription
    const inFlight = cached.store.apiKeys.findByHash('w');
    await new Promise((resolve) => setTimeout(resolve, 0));
    (await inner.apiKeys.revoke('key_4', new Date(11)))._unsafeUnwrap();
    handlers?.onNotice('key:key_4');
    release?.();
    expect((await inFlight)._unsafeUnwrap()?.revokedAt).toBeUndefined();
    const again = cached.store.apiKeys.findByHash('w');
    await new Promise((resolve) => setTimeout(resolve, 0));
    release?.();
    expect((await again)._unsafeUnwrap()?.revokedAt).toEqual(new Date(11));
  });

  it('caches tenants the same way and drops one on its notice', async () => {
    const t = await setup(60_000);
    expect((await t.store.tenants.get(DEFAULT_TENANT))._unsafeUnwrap()?.treasuryPayments).toBe(true);
    (await t.inner.tenants.update(DEFAULT_TENANT, { treasuryPayments: false }))._unsafeUnwrap();
    expect((await t.store.tenants.get(DEFAULT_TENANT))._unsafeUnwrap()?.treasuryPayments).toBe(true);
    t.notify('tenant:default');
    expect((await t.store.tenants.get(DEFAULT_TENANT))._unsafeUnwrap()?.treasuryPayments).toBe(false);
    (await t.store.tenants.update(DEFAULT_TENANT, { treasuryPayments: true }))._unsafeUnwrap();
    expect((await t.store.tenants.get(DEFAULT_TENANT))._unsafeUnwrap()?.treasuryPayments).toBe(true);
  });
});
