import {
  type ClockPort,
  DEFAULT_TENANT,
  type DomainError,
  domainError,
  type HeldKey,
  isDomainError,
  type KeystorePort,
  type PublicKey,
  type TenantId,
} from '@token-actions/core';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import { storeFailure } from '../store/pg/failure.js';
import type { SqlExecutor } from '../store/pg/sql.js';
import { statement } from '../store/pg/statement.js';
import { copy, importMasterKey, type SealedKey, sealNewKey, unsealKey } from './seal.js';
import { TtlCache } from './ttl-cache.js';

export interface EncryptedKeystoreOptions {
  /** A client on a database migrated with `migrate` (table `managed_keys`). */
  readonly sql: SqlExecutor;
  /** 32 bytes: the AES-256-GCM key every secret is sealed under. */
  readonly masterKey: Uint8Array;
  readonly clock?: ClockPort;
  /** How long a decrypted signing key stays in memory after it was unsealed; default 5 minutes. */
  readonly signingKeyTtlMs?: number;
  /** At most this many decrypted signing keys are held (the oldest go first); default 10,000. */
  readonly maxSigningKeys?: number;
  /** Signs with a held key; default WebCrypto's `subtle.sign`, which every runtime has. Node
   * processes pass `nodeKeySigner()`: the same signature without a thread-pool job per call. */
  readonly sign?: KeySigner;
}

/** Makes an Ed25519 signature with a signing key the keystore unsealed. */
export type KeySigner = (key: CryptoKey, message: Uint8Array) => Uint8Array | Promise<Uint8Array>;

/** WebCrypto's Ed25519 signature: a job on the runtime's own workers, answered asynchronously. */
const webKeySigner: KeySigner = (key, message) =>
  crypto.subtle.sign('Ed25519', key, copy(message)).then((sig) => new Uint8Array(sig));

const NAME_MAX = 128;

const INSERT_KEY = statement(
  ['publicKey', 'name', 'label', 'ciphertext', 'iv', 'at', 'tenant'],
  (p) =>
    `INSERT INTO managed_keys (public_key, name, label, ciphertext, iv, created_at, tenant)
     VALUES (${p.publicKey}, ${p.name}, ${p.label}, ${p.ciphertext}, ${p.iv}, ${p.at}, ${p.tenant})
     ON CONFLICT DO NOTHING
     RETURNING public_key`,
);

/**
 * Custodial Ed25519 keys, stored in `managed_keys` as the 32-byte seed sealed with AES-256-GCM
 * under the master key (see `seal.ts`). Imported signing keys are cached in memory as
 * non-extractable CryptoKeys for a short while (`signingKeyTtlMs`): a burst of signatures by one
 * account costs one read and one decryption, and a key not used lately is not held.
 */
export function createEncryptedKeystore(options: EncryptedKeystoreOptions): KeystorePort {
  const masterKey = importMasterKey(options.masterKey);
  const { sql } = options;
  const now = () => options.clock?.now() ?? new Date();
  const signWith = options.sign ?? webKeySigner;
  const ttlMs = options.signingKeyTtlMs ?? 5 * 60_000;
  const maxSigningKeys = options.maxSigningKeys ?? 10_000;
  const signingKeys = new TtlCache<Promise<CryptoKey | null>>(ttlMs, maxSigningKeys, now);
  // Whose a held key is never changes once it is stored, so a found key is remembered as long as a
  // signing key is (a key not found is not: another process may create it).
  const heldKeys = new TtlCache<HeldKey>(ttlMs, maxSigningKeys, now);

  const lookupStored = (publicKey: PublicKey): Promise<HeldKey | null> =>
    db(
      'keystore.lookup',
      sql.query<{ tenant: string | null }>('SELECT tenant FROM managed_keys WHERE public_key = $1', [
        publicKey,
      ]),
    ).then((r) => {
      const row = r.rows[0];
      if (!row) return null;
      const held: HeldKey = row.tenant === null ? {} : { tenant: row.tenant as TenantId };
      heldKeys.set(publicKey, held);
      return held;
    });

  const insert = (sealed: SealedKey, name: string | null, label: string | null, tenant: TenantId | null) =>
    db(
      'keystore.insert',
      sql.query(INSERT_KEY.text, INSERT_KEY.params({ ...sealed, name, label, at: now(), tenant })),
    );

  const unseal = async (publicKey: PublicKey): Promise<CryptoKey | null> => {
    const found = await db(
      'keystore.sign',
      sql.query<{ ciphertext: Uint8Array; iv: Uint8Array }>(
        'SELECT ciphertext, iv FROM managed_keys WHERE public_key = $1',
        [publicKey],
      ),
    );
    const row = found.rows[0];
    return row ? unsealKey(masterKey, publicKey, row) : null;
  };

  // Concurrent first signatures share one decryption; a key that is not held (or fails) is not
  // remembered, since another process may create it later.
  const signingKey = (publicKey: PublicKey): ResultAsync<CryptoKey | null, DomainError> => {
    let key = signingKeys.get(publicKey);
    if (!key) {
      const started = unseal(publicKey);
      signingKeys.set(publicKey, started);
      const forget = () => signingKeys.deleteIf(publicKey, started);
      started.then((unsealed) => unsealed ?? forget(), forget);
      key = started;
    }
    return ResultAsync.fromPromise(key, asDomainError('keystore.sign'));
  };

  return {
    create(label, tenant) {
      return ResultAsync.fromPromise(
        (async () => {
          const sealed = await sealNewKey(masterKey);
          const result = await insert(sealed, null, label ?? null, tenant ?? DEFAULT_TENANT);
          // 256 random bits cannot collide with an existing key; a miss here means a broken generator.
          if (result.rows.length === 0) throw new Error('generated public key already stored');
          return sealed.publicKey;
        })(),
        asDomainError('keystore.create'),
      );
    },

    named(name) {
      if (name.length === 0 || name.length > NAME_MAX) {
        return errAsync(domainError('INVALID_INPUT', `a key name must be 1 to ${NAME_MAX} characters`));
      }
      return ResultAsync.fromPromise(
        (async () => {
          const byName = async () =>
            (
              await db(
                'keystore.named',
                sql.query<{ public_key: string }>('SELECT public_key FROM managed_keys WHERE name = $1', [
                  name,
                ]),
              )
            ).rows[0]?.public_key as PublicKey | undefined;
          const existing = await byName();
          if (existing) return existing;
          const sealed = await sealNewKey(masterKey);
          const result = await insert(sealed, name, name, null);
          if (result.rows.length > 0) return sealed.publicKey;
          // Another caller created the name between our read and our insert: theirs wins.
          const winner = await byName();
          if (!winner) throw new Error('named key vanished after a conflicting insert');
          return winner;
        })(),
        asDomainError('keystore.named'),
      );
    },

    has(publicKey) {
      if (heldKeys.get(publicKey)) return okAsync(true);
      return ResultAsync.fromPromise(
        lookupStored(publicKey).then((held) => held !== null),
        asDomainError('keystore.has'),
      );
    },

    lookup(publicKey) {
      const held = heldKeys.get(publicKey);
      if (held) return okAsync(held);
      return ResultAsync.fromPromise(lookupStored(publicKey), asDomainError('keystore.lookup'));
    },

    sign(publicKey, message) {
      return signingKey(publicKey).andThen((key) => {
        if (!key) {
          return errAsync(
            domainError(
              'UNKNOWN_ACCOUNT',
              `account ${String(publicKey).slice(0, 64)} is not managed by this service`,
            ),
          );
        }
        return ResultAsync.fromPromise((async () => signWith(key, message))(), () =>
          domainError('INTERNAL', 'signing failed'),
        );
      });
    },
  };
}

/** Keeps the DomainErrors raised on purpose; anything else is an internal fault, reported without detail. */
function asDomainError(operation: string) {
  return (error: unknown): DomainError =>
    isDomainError(error) ? error : domainError('INTERNAL', `the keystore could not complete ${operation}`);
}

/** Database failures become STORE_UNAVAILABLE here, before driver details could reach anything else. */
function db<T>(operation: string, pending: Promise<T>): Promise<T> {
  return pending.catch((error: unknown) => {
    throw storeFailure(operation)(error);
  });
}
