import {
  DEFAULT_TENANT,
  decodeBase58,
  isPublicKey,
  type KeystorePort,
  type PublicKey,
  type TenantId,
} from '@token-actions/core';
import { createFixedClock, createInMemoryKeystore } from '@token-actions/core/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEncryptedKeystore, type KeySigner, nodeKeySigner } from '../../src/keystore/index.js';
import type { SqlClient } from '../../src/store/index.js';
import {
  createMigratedPglite,
  createPostgresSchema,
  POSTGRES_REACHABLE,
  randomPublicKey,
  truncateAll,
} from '../store/harness.js';

interface Variant {
  name: string;
  skip: boolean;
  sql?: () => SqlClient;
  setup(): Promise<void>;
  fresh(): Promise<KeystorePort>;
  teardown(): Promise<void>;
}

const masterKey = () => crypto.getRandomValues(new Uint8Array(32));

function encryptedVariant(
  name: string,
  open: () => Promise<{ sql: SqlClient; close(): Promise<void> }>,
  skip = false,
  sign?: KeySigner,
): Variant {
  let opened: { sql: SqlClient; close(): Promise<void> } | undefined;
  return {
    name,
    skip,
    sql: () => opened!.sql,
    async setup() {
      opened = await open();
    },
    async fresh() {
      await truncateAll(opened!.sql);
      return createEncryptedKeystore({ sql: opened!.sql, masterKey: masterKey(), ...(sign ? { sign } : {}) });
    },
    async teardown() {
      await opened?.close();
    },
  };
}

const variants: Variant[] = [
  {
    name: 'in-memory fake',
    skip: false,
    async setup() {},
    fresh: async () => createInMemoryKeystore(),
    async teardown() {},
  },
  encryptedVariant('encrypted on PGlite', async () => {
    const sql = await createMigratedPglite();
    return { sql, close: () => sql.close() };
  }),
  encryptedVariant(
    'encrypted on PGlite, signing with Node',
    async () => {
      const sql = await createMigratedPglite();
      return { sql, close: () => sql.close() };
    },
    false,
    nodeKeySigner(),
  ),
  encryptedVariant(
    'encrypted on PostgreSQL',
    async () => {
      const schema = await createPostgresSchema();
      return { sql: schema.sql, close: () => schema.drop() };
    },
    !POSTGRES_REACHABLE,
  ),
];

async function verify(publicKey: PublicKey, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
  const key = await crypto.subtle.importKey('raw', own(decodeBase58(publicKey)!), { name: 'Ed25519' }, true, [
    'verify',
  ]);
  return crypto.subtle.verify('Ed25519', key, own(signature), own(message));
}

describe.each(variants)('KeystorePort contract: $name', (variant) => {
  describe.skipIf(variant.skip)('semantics', () => {
    let keystore: KeystorePort;

    beforeAll(() => variant.setup(), 60_000);
    afterAll(() => variant.teardown());
    beforeEach(async () => {
      keystore = await variant.fresh();
    });

    it('creates distinct keys it then holds', async () => {
      const a = (await keystore.create('alice'))._unsafeUnwrap();
      const b = (await keystore.create())._unsafeUnwrap();
      expect(isPublicKey(a)).toBe(true);
      expect(isPublicKey(b)).toBe(true);
      expect(a).not.toBe(b);
      expect((await keystore.has(a))._unsafeUnwrap()).toBe(true);
      expect((await keystore.has(randomPublicKey()))._unsafeUnwrap()).toBe(false);
      expect((await keystore.has('not-a-key' as PublicKey))._unsafeUnwrap()).toBe(false);
    });

    it('knows whose key it holds: a tenant’s managed account, or the service’s own named key', async () => {
      const acme = (await keystore.create('acme', 'acme' as TenantId))._unsafeUnwrap();
      const plain = (await keystore.create())._unsafeUnwrap();
      const treasury = (await keystore.named('treasury'))._unsafeUnwrap();
      expect((await keystore.lookup(acme))._unsafeUnwrap()).toEqual({ tenant: 'acme' });
      expect((await keystore.lookup(plain))._unsafeUnwrap()).toEqual({ tenant: DEFAULT_TENANT });
      expect((await keystore.lookup(treasury))._unsafeUnwrap()).toEqual({});
      expect((await keystore.lookup(randomPublicKey()))._unsafeUnwrap()).toBeNull();
    });

    it('signs with Ed25519 so that WebCrypto verifies it', async () => {
      const pk = (await keystore.create())._unsafeUnwrap();
      const message = new TextEncoder().encode('solana message bytes');
      const signature = (await keystore.sign(pk, message))._unsafeUnwrap();
      expect(signature).toHaveLength(64);
      expect(await verify(pk, message, signature)).toBe(true);
      expect(await verify(pk, new TextEncoder().encode('another message'), signature)).toBe(false);
      // Ed25519 is deterministic: the same message signs the same way twice.
      expect((await keystore.sign(pk, message))._unsafeUnwrap()).toEqual(signature);
    });

    it('signs concurrently with one key and with many', async () => {
      const keys: PublicKey[] = [];
      for (let i = 0; i < 5; i++) keys.push((await keystore.create())._unsafeUnwrap());
      const jobs = keys.flatMap((pk) =>
        Array.from({ length: 10 }, (_, i) => {
          const message = Uint8Array.from([i, ...decodeBase58(pk)!]);
          return keystore.sign(pk, message).then((r) => verify(pk, message, r._unsafeUnwrap()));
        }),
      );
      expect(await Promise.all(jobs)).toEqual(jobs.map(() => true));
    });

    it('refuses to sign for a key it does not hold', async () => {
      const result = await keystore.sign(randomPublicKey(), new Uint8Array([1, 2, 3]));
      expect(result._unsafeUnwrapErr().code).toBe('UNKNOWN_ACCOUNT');
      const garbage = await keystore.sign('%%%' as PublicKey, new Uint8Array([1]));
      expect(garbage._unsafeUnwrapErr().code).toBe('UNKNOWN_ACCOUNT');
    });

    it('returns the same key for a name, created on first use', async () => {
      const treasury = (await keystore.named('treasury'))._unsafeUnwrap();
      expect((await keystore.named('treasury'))._unsafeUnwrap()).toBe(treasury);
      const vault = (await keystore.named('escrow-vault'))._unsafeUnwrap();
      expect(vault).not.toBe(treasury);
      expect((await keystore.has(treasury))._unsafeUnwrap()).toBe(true);
      const message = Uint8Array.from([9, 9, 9]);
      expect(await verify(treasury, message, (await keystore.sign(treasury, message))._unsafeUnwrap())).toBe(
        true,
      );
    });

    it('agrees on one key when a name is first used concurrently', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, () => keystore.named('mint-authority')));
      const keys = new Set(results.map((r) => r._unsafeUnwrap()));
      expect(keys.size).toBe(1);
    });

    if (variant.sql) {
      describe('at rest', () => {
        it('stores only ciphertext, bound to its public key, that decrypts under the master key', async () => {
          const sql = variant.sql!();
          const key = masterKey();
          const ks = createEncryptedKeystore({ sql, masterKey: key });
          const pk = (await ks.create('custody'))._unsafeUnwrap();
          const { rows } = await sql.query<{
            ciphertext: Uint8Array;
            iv: Uint8Array;
            label: string;
            name: string | null;
          }>('SELECT ciphertext, iv, label, name FROM managed_keys WHERE public_key = $1', [pk]);
          const row = rows[0]!;
          expect(row.label).toBe('custody');
          expect(row.name).toBeNull();
          expect(row.iv).toHaveLength(12);

          const aes = await crypto.subtle.importKey('raw', key, 'AES-GCM', false, ['decrypt']);
          const seed = new Uint8Array(
            await crypto.subtle.decrypt(
              { name: 'AES-GCM', iv: new Uint8Array(row.iv), additionalData: own(decodeBase58(pk)!) },
              aes,
              new Uint8Array(row.ciphertext),
            ),
          );
          expect(seed).toHaveLength(32);
          expect(indexOf(new Uint8Array(row.ciphertext), seed)).toBe(-1);
          for (const column of Object.values(row)) {
            if (column instanceof Uint8Array)
              expect(indexOf(new Uint8Array(column), seed.subarray(0, 8))).toBe(-1);
          }

          // The seed really is this account's secret: its derived public key is the stored one.
          const pkcs8 = new Uint8Array([...PKCS8_PREFIX, ...seed]);
          const imported = await crypto.subtle.importKey('pkcs8', pkcs8, { name: 'Ed25519' }, true, ['sign']);
          const jwk = await crypto.subtle.exportKey('jwk', imported);
          expect(Buffer.from(jwk.x!, 'base64url')).toEqual(Buffer.from(decodeBase58(pk)!));

          // Copying the ciphertext onto another public key does not decrypt (the key is the AAD).
          await expect(
            crypto.subtle.decrypt(
              {
                name: 'AES-GCM',
                iv: new Uint8Array(row.iv),
                additionalData: own(decodeBase58(randomPublicKey())!),
              },
              aes,
              new Uint8Array(row.ciphertext),
            ),
          ).rejects.toBeDefined();
        });

        it('signs after a restart with the same master key', async () => {
          const sql = variant.sql!();
          const key = masterKey();
          const pk = (
            await createEncryptedKeystore({ sql, masterKey: key }).named('treasury')
          )._unsafeUnwrap();
          const restarted = createEncryptedKeystore({ sql, masterKey: Uint8Array.from(key) });
          expect((await restarted.named('treasury'))._unsafeUnwrap()).toBe(pk);
          const message = Uint8Array.from([1, 2, 3]);
          expect(await verify(pk, message, (await restarted.sign(pk, message))._unsafeUnwrap())).toBe(true);
        });

        it('cannot sign under a different master key, and says so without secret material', async () => {
          const sql = variant.sql!();
          const right = masterKey();
          const wrong = masterKey();
          const pk = (await createEncryptedKeystore({ sql, masterKey: right }).create())._unsafeUnwrap();
          const other = createEncryptedKeystore({ sql, masterKey: wrong });
          expect((await other.has(pk))._unsafeUnwrap()).toBe(true);
          const result = await other.sign(pk, Uint8Array.from([1]));
          const error = result._unsafeUnwrapErr();
          expect(error.code).toBe('INTERNAL');
          expect(error.message).toMatch(/master key/);
          const { rows } = await sql.query<{ ciphertext: Uint8Array; iv: Uint8Array }>(
            'SELECT ciphertext, iv FROM managed_keys WHERE public_key = $1',
            [pk],
          );
          const rendered = `${JSON.stringify(error)} ${String(error.cause ?? '')}`;
          for (const secret of [right, wrong, rows[0]!.ciphertext, rows[0]!.iv]) {
            const bytes = Buffer.from(secret);
            for (const encoding of ['hex', 'base64', 'base64url'] as const) {
              expect(rendered).not.toContain(bytes.toString(encoding));
            }
          }
          expect(rendered).not.toMatch(/"\d+":\d+/); // no serialised byte arrays
          // A failed decryption is not cached: the right key still works afterwards.
          const fixed = createEncryptedKeystore({ sql, masterKey: right });
          expect((await fixed.sign(pk, Uint8Array.from([1])))._unsafeUnwrap()).toHaveLength(64);
        });

        it('holds a decrypted key and whose it is only for a short lifetime, then reads them again', async () => {
          const sql = variant.sql!();
          const clock = createFixedClock(new Date('2026-01-01T00:00:00.000Z'));
          const ks = createEncryptedKeystore({ sql, masterKey: masterKey(), clock, signingKeyTtlMs: 60_000 });
          const pk = (await ks.create('tenant key', 'acme' as TenantId))._unsafeUnwrap();
          const message = Uint8Array.from([7]);
          expect((await ks.lookup(pk))._unsafeUnwrap()).toEqual({ tenant: 'acme' });
          expect(await verify(pk, message, (await ks.sign(pk, message))._unsafeUnwrap())).toBe(true);
          // The row is gone, but within its lifetime the decrypted key still signs (no read, no decryption).
          await sql.query('DELETE FROM managed_keys WHERE public_key = $1', [pk]);
          clock.advance(59_000);
          expect(await verify(pk, message, (await ks.sign(pk, message))._unsafeUnwrap())).toBe(true);
          expect((await ks.lookup(pk))._unsafeUnwrap()).toEqual({ tenant: 'acme' });
          expect((await ks.has(pk))._unsafeUnwrap()).toBe(true);
          // Past it the key is read again, and now it is not held.
          clock.advance(1_000);
          expect((await ks.sign(pk, message))._unsafeUnwrapErr().code).toBe('UNKNOWN_ACCOUNT');
          expect((await ks.lookup(pk))._unsafeUnwrap()).toBeNull();
          expect((await ks.has(pk))._unsafeUnwrap()).toBe(false);
        });

        it('signs the same bytes with Node’s signer as with WebCrypto’s, and reports a failing signer plainly', async () => {
          const sql = variant.sql!();
          const key = masterKey();
          const web = createEncryptedKeystore({ sql, masterKey: key });
          const node = createEncryptedKeystore({ sql, masterKey: key, sign: nodeKeySigner() });
          const pk = (await web.create())._unsafeUnwrap();
          for (const message of [
            new Uint8Array(0),
            Uint8Array.from([7]),
            crypto.getRandomValues(new Uint8Array(1232)),
          ]) {
            const fromNode = (await node.sign(pk, message))._unsafeUnwrap();
            expect(fromNode).toEqual((await web.sign(pk, message))._unsafeUnwrap());
            expect(await verify(pk, message, fromNode)).toBe(true);
          }
          const broken = createEncryptedKeystore({
            sql,
            masterKey: key,
            sign: () => {
              throw new Error('engine failure with key material 0x1234');
            },
          });
          const error = (await broken.sign(pk, Uint8Array.from([1])))._unsafeUnwrapErr();
          expect(error.code).toBe('INTERNAL');
          expect(error.message).toBe('signing failed');
          expect(JSON.stringify(error)).not.toContain('0x1234');
        });

        it('refuses a master key that is not 32 bytes', () => {
          const sql = variant.sql!();
          expect(() => createEncryptedKeystore({ sql, masterKey: new Uint8Array(16) })).toThrow(/32 bytes/);
        });

        it('reports database failures as STORE_UNAVAILABLE', async () => {
          const failing = createEncryptedKeystore({
            sql: {
              query: () =>
                Promise.reject(Object.assign(new Error('boom SELECT ciphertext'), { code: '08006' })),
            },
            masterKey: masterKey(),
          });
          for (const result of [
            await failing.create(),
            await failing.named('treasury'),
            await failing.has(randomPublicKey()),
            await failing.sign(randomPublicKey(), new Uint8Array(1)),
          ]) {
            const error = result._unsafeUnwrapErr();
            expect(error.code).toBe('STORE_UNAVAILABLE');
            expect(JSON.stringify(error)).not.toContain('SELECT');
          }
        });
      });
    }
  });
});

const PKCS8_PREFIX = [
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
];

/** WebCrypto's types want bytes over a plain ArrayBuffer. */
function own(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
