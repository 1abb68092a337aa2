import type { OAuthStore, OAuthTokenRecord, PublicKey } from '@token-actions/core';
import { createMemoryOAuthStore } from '@token-actions/core/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresReachable, requireUnderCi, TEST_DATABASE_URL } from '../../test/support/services.js';
import { migrate } from '../store/pg/migrate.js';
import { createPgliteClient } from '../store/pg/pglite.js';
import { createPostgresClient } from '../store/pg/postgres.js';
import { createPgOAuthStore } from './pg-store.js';

const POSTGRES_URL = TEST_DATABASE_URL;
const schema = `oauth_test_${process.pid}_${Date.now()}`;

const withPostgres = requireUnderCi('PostgreSQL', POSTGRES_URL, await postgresReachable(POSTGRES_URL));

interface Backend {
  name: string;
  open(): Promise<{ store: OAuthStore; close(): Promise<void> }>;
}

const backends: Backend[] = [
  { name: 'memory fake', open: async () => ({ store: createMemoryOAuthStore(), close: async () => {} }) },
  {
    name: 'pg (PGlite)',
    async open() {
      const client = await createPgliteClient();
      await migrate(client);
      return { store: createPgOAuthStore(client), close: () => client.close() };
    },
  },
];
if (withPostgres) {
  backends.push({
    name: 'pg (PostgreSQL)',
    async open() {
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      const client = createPostgresClient({ connectionString: POSTGRES_URL, schema, max: 8 });
      await migrate(client);
      return {
        store: createPgOAuthStore(client),
        async close() {
          await client.query(`DROP SCHEMA ${schema} CASCADE`);
          await client.close();
        },
      };
    },
  });
}

const wallet = '11111111111111111111111111111111' as PublicKey;
const t0 = new Date('2025-01-01T00:00:00.000Z');
const later = (ms: number) => new Date(t0.getTime() + ms);

function token(
  hash: string,
  kind: 'access' | 'refresh',
  grantId: string,
  clientId = 'client-a',
): OAuthTokenRecord {
  return {
    tokenHash: hash,
    kind,
    grantId,
    clientId,
    subject: wallet,
    scope: ['read'],
    expiresAt: later(3_600_000),
    createdAt: t0,
  };
}

describe.each(backends)('OAuthStore contract: $name', (backend) => {
  let store: OAuthStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await backend.open());
  });
  afterAll(() => close());

  it('upserts and reads clients', async () => {
    const client = {
      id: 'client-a',
      name: 'A',
      type: 'confidential' as const,
      secretHash: 'ab'.repeat(32),
      redirectUris: ['https://a.example/cb'],
      scopes: ['read', 'write'] as const,
      createdAt: t0,
    };
    (await store.clients.upsert({ ...client, scopes: [...client.scopes] }))._unsafeUnwrap();
    await store.clients.upsert({ ...client, scopes: ['read'], secretHash: 'cd'.repeat(32) });
    const read = (await store.clients.get('client-a'))._unsafeUnwrap();
    expect(read).toMatchObject({ id: 'client-a', secretHash: 'cd'.repeat(32), scopes: ['read'] });
    expect(read?.redirectUris).toEqual(['https://a.example/cb']);
    expect((await store.clients.get('nobody'))._unsafeUnwrap()).toBeNull();
  });

  it('lists the redirect URIs of public clients only (the default CORS origins)', async () => {
    const base = { name: 'P', scopes: ['read' as const], createdAt: t0 };
    await store.clients.upsert({
      ...base,
      id: 'public-a',
      type: 'public',
      redirectUris: ['https://app.example/cb', 'http://127.0.0.1:5173/cb'],
    });
    await store.clients.upsert({
      ...base,
      id: 'confidential-b',
      type: 'confidential',
      secretHash: 'ef'.repeat(32),
      redirectUris: ['https://backend.example/cb'],
    });
    const uris = (await store.clients.publicRedirectUris())._unsafeUnwrap();
    expect([...uris].sort()).toEqual(['http://127.0.0.1:5173/cb', 'https://app.example/cb']);
  });

  it('consumes a code once, even under concurrent redemptions, and reports replays', async () => {
    await store.insertCode({
      codeHash: 'code-1',
      clientId: 'client-a',
      redirectUri: 'https://a.example/cb',
      scope: ['read', 'write'],
      subject: wallet,
      codeChallenge: 'challenge',
      grantId: 'grant-code-1',
      expiresAt: later(60_000),
      createdAt: t0,
    });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => store.consumeCode('code-1', later(1000))),
    );
    const states = results.map((r) => r._unsafeUnwrap()?.state).sort();
    expect(states.filter((s) => s === 'consumed')).toHaveLength(1);
    expect(states.filter((s) => s === 'replayed')).toHaveLength(7);
    const replay = (await store.consumeCode('code-1', later(2000)))._unsafeUnwrap();
    expect(replay).toMatchObject({
      state: 'replayed',
      code: { grantId: 'grant-code-1', scope: ['read', 'write'] },
    });
    expect((await store.consumeCode('unknown', t0))._unsafeUnwrap()).toBeNull();
  });

  it('finds tokens and reflects token and grant revocation', async () => {
    await store.issueTokens([token('acc-1', 'access', 'grant-1'), token('ref-1', 'refresh', 'grant-1')]);
    expect((await store.findToken('acc-1'))._unsafeUnwrap()).toMatchObject({
      kind: 'access',
      grantId: 'grant-1',
    });
    expect((await store.findToken('acc-1'))._unsafeUnwrap()?.revokedAt).toBeUndefined();
    await store.revokeToken('acc-1', later(10));
    expect((await store.findToken('acc-1'))._unsafeUnwrap()?.revokedAt).toEqual(later(10));
    expect((await store.findToken('ref-1'))._unsafeUnwrap()?.revokedAt).toBeUndefined();
    await store.revokeGrant('grant-1', later(20));
    expect((await store.findToken('ref-1'))._unsafeUnwrap()?.revokedAt).toEqual(later(20));
    expect((await store.findToken('missing'))._unsafeUnwrap()).toBeNull();
  });

  it('keeps a grant revoked before its tokens were stored revoked', async () => {
    await store.revokeGrant('grant-early', later(5));
    await store.issueTokens([token('acc-early', 'access', 'grant-early')]);
    expect((await store.findToken('acc-early'))._unsafeUnwrap()?.revokedAt).toEqual(later(5));
  });

  it('rotates a refresh token once; a second use is reported as reuse', async () => {
    await store.issueTokens([token('ref-2', 'refresh', 'grant-2')]);
    const first = await store.rotateRefreshToken(
      'ref-2',
      [token('acc-3', 'access', 'grant-2'), token('ref-3', 'refresh', 'grant-2')],
      later(100),
    );
    expect(first._unsafeUnwrap()).toEqual({ state: 'rotated' });
    expect((await store.findToken('ref-2'))._unsafeUnwrap()?.rotatedAt).toEqual(later(100));
    expect((await store.findToken('ref-3'))._unsafeUnwrap()).toMatchObject({ kind: 'refresh' });
    const second = await store.rotateRefreshToken('ref-2', [token('acc-x', 'access', 'grant-2')], later(200));
    expect(second._unsafeUnwrap()).toEqual({ state: 'reused', grantId: 'grant-2' });
    expect((await store.findToken('acc-x'))._unsafeUnwrap()).toBeNull();
    await store.revokeGrant('grant-2', later(300));
    const afterRevoke = await store.rotateRefreshToken('ref-3', [], later(400));
    expect(afterRevoke._unsafeUnwrap()).toEqual({ state: 'inactive' });
    expect((await store.rotateRefreshToken('acc-3', [], later(400)))._unsafeUnwrap()).toEqual({
      state: 'inactive',
    });
  });

  it('lets exactly one of many concurrent rotations of the same refresh token win', async () => {
    await store.issueTokens([token('ref-race', 'refresh', 'grant-race')]);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        store.rotateRefreshToken('ref-race', [token(`ref-race-${i}`, 'refresh', 'grant-race')], later(50)),
      ),
    );
    const states = results.map((r) => r._unsafeUnwrap().state);
    expect(states.filter((s) => s === 'rotated')).toHaveLength(1);
    expect(states.filter((s) => s === 'reused')).toHaveLength(5);
  });

  it('consumes a nonce once and never after it expired', async () => {
    await store.insertNonce({ nonce: 'n-1', expiresAt: later(300_000) });
    await store.insertNonce({ nonce: 'n-2', expiresAt: later(1000) });
    expect((await store.consumeNonce('n-1', later(10)))._unsafeUnwrap()).toBe(true);
    expect((await store.consumeNonce('n-1', later(11)))._unsafeUnwrap()).toBe(false);
    expect((await store.consumeNonce('n-2', later(1000)))._unsafeUnwrap()).toBe(false);
    expect((await store.consumeNonce('never-issued', t0))._unsafeUnwrap()).toBe(false);
  });

  it('purges what expired', async () => {
    await store.insertNonce({ nonce: 'n-old', expiresAt: later(1) });
    const removed = (await store.purgeExpired(later(10 * 3_600_000)))._unsafeUnwrap();
    expect(removed).toBeGreaterThan(0);
    expect((await store.findToken('ref-3'))._unsafeUnwrap()).toBeNull();
  });
});
