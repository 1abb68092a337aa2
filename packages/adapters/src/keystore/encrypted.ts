import {
  type ClockPort,
  DEFAULT_TENANT,
  type DomainError,
  decodeBase58,
  domainError,
  encodeBase58,
  type HeldKey,
  isDomainError,
  type KeystorePort,
  type PublicKey,
  type TenantId,
} from '@token-actions/core';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import { storeFailure } from '../store/pg/failure.js';
import type { SqlExecutor } from '../store/pg/sql.js';

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

// An Ed25519 PKCS#8 document is this fixed header followed by the 32-byte seed (RFC 8410).
const PKCS8_ED25519_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);
const SEED_BYTES = 32;
const IV_BYTES = 12;
const NAME_MAX = 128;

/**
 * Custodial Ed25519 keys, stored in `managed_keys` as the 32-byte seed sealed with AES-256-GCM
 * under the master key. The public key is the additional authenticated data, so a ciphertext
 * copied onto another row does not decrypt. Imported signing keys are cached in memory as
 * non-extractable CryptoKeys for a short while (`signingKeyTtlMs`): a burst of signatures by one
 * account costs one read and one decryption, and a key not used lately is not held.
 */
export function createEncryptedKeystore(options: EncryptedKeystoreOptions): KeystorePort {
  if (!(options.masterKey instanceof Uint8Array) || options.masterKey.length !== 32) {
    throw new Error('the keystore master key must be exactly 32 bytes');
  }
  const { sql } = options;
  const now = () => options.clock?.now() ?? new Date();
  const masterKey = crypto.subtle.importKey('raw', copy(options.masterKey), { name: 'AES-GCM' }, false, [
    'encrypt',
    'decrypt',
  ]);
  const signWith = options.sign ?? webKeySigner;
  const ttlMs = options.signingKeyTtlMs ?? 5 * 60_000;
  const maxSigningKeys = options.maxSigningKeys ?? 10_000;
  const signingKeys = new Map<string, { readonly key: Promise<CryptoKey | null>; readonly until: number }>();
  // Whose a held key is never changes once it is stored, so a found key is remembered as long as a
  // signing key is (a key not found is not: another process may create it).
  const heldKeys = new Map<string, { readonly held: HeldKey; readonly until: number }>();
  const remember = <T>(map: Map<string, T & { until: number }>, key: string, entry: T) => {
    map.delete(key);
    if (map.size >= maxSigningKeys) map.delete(map.keys().next().value as string);
    map.set(key, { ...entry, until: now().getTime() + ttlMs });
  };
  const heldNow = (publicKey: PublicKey): HeldKey | undefined => {
    const hit = heldKeys.get(publicKey);
    return hit && hit.until > now().getTime() ? hit.held : undefined;
  };
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
      remember(heldKeys, publicKey, { held });
      return held;
    });

  const generateSealed = async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    const publicBytes = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
    const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
    try {
      if (
        pkcs8.length !== PKCS8_ED25519_PREFIX.length + SEED_BYTES ||
        !startsWith(pkcs8, PKCS8_ED25519_PREFIX)
      ) {
        throw new Error('unexpected Ed25519 PKCS#8 layout');
      }
      const seed = pkcs8.subarray(PKCS8_ED25519_PREFIX.length);
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const ciphertext = new Uint8Array(
        await crypto.subtle.encrypt(
          { name: 'AES-GCM', iv, additionalData: publicBytes },
          await masterKey,
          seed,
        ),
      );
      return { publicKey: encodeBase58(publicBytes) as PublicKey, ciphertext, iv };
    } finally {
      pkcs8.fill(0);
    }
  };

  const insert = (
    sealed: { publicKey: PublicKey; ciphertext: Uint8Array; iv: Uint8Array },
    name: string | null,
    label: string | null,
    tenant: TenantId | null,
  ) =>
    db(
      'keystore.insert',
      sql.query(
        `INSERT INTO managed_keys (public_key, name, label, ciphertext, iv, created_at, tenant)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT DO NOTHING
       RETURNING public_key`,
        [sealed.publicKey, name, label, sealed.ciphertext, sealed.iv, now(), tenant],
      ),
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
    if (!row) return null;
    const publicBytes = decodeBase58(publicKey);
    let seed: Uint8Array;
    try {
      seed = new Uint8Array(
        await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: copy(row.iv), additionalData: copy(publicBytes ?? new Uint8Array()) },
          await masterKey,
          copy(row.ciphertext),
        ),
      );
    } catch {
      throw domainError(
        'INTERNAL',
        `the key of account ${publicKey} cannot be decrypted: the master key differs from the one it was stored under, or the record is damaged`,
      );
    }
    const pkcs8 = new Uint8Array(PKCS8_ED25519_PREFIX.length + SEED_BYTES);
    pkcs8.set(PKCS8_ED25519_PREFIX, 0);
    pkcs8.set(seed, PKCS8_ED25519_PREFIX.length);
    seed.fill(0);
    try {
      return await crypto.subtle.importKey('pkcs8', pkcs8, { name: 'Ed25519' }, false, ['sign']);
    } catch {
      throw domainError('INTERNAL', `the stored key of account ${publicKey} is not a valid Ed25519 key`);
    } finally {
      pkcs8.fill(0);
    }
  };

  // Concurrent first signatures share one decryption; a key that is not held (or fails) is not
  // remembered, since another process may create it later.
  const signingKey = (publicKey: PublicKey): ResultAsync<CryptoKey | null, DomainError> => {
    let entry = signingKeys.get(publicKey);
    if (!entry || entry.until <= now().getTime()) {
      const started = unseal(publicKey);
      remember(signingKeys, publicKey, { key: started });
      entry = signingKeys.get(publicKey)!;
      const fresh = entry;
      const forget = () => {
        if (signingKeys.get(publicKey) === fresh) signingKeys.delete(publicKey);
      };
      started.then((key) => key ?? forget(), forget);
    }
    return ResultAsync.fromPromise(entry.key, asDomainError('keystore.sign'));
  };

  return {
    create(label, tenant) {
      return ResultAsync.fromPromise(
        (async () => {
          const sealed = await generateSealed();
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
          const sealed = await generateSealed();
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
      if (heldNow(publicKey)) return okAsync(true);
      return ResultAsync.fromPromise(
        lookupStored(publicKey).then((held) => held !== null),
        asDomainError('keystore.has'),
      );
    },

    lookup(publicKey) {
      const held = heldNow(publicKey);
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

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/** WebCrypto wants a buffer it owns; drivers hand out views into shared pools (Buffer). */
function copy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(bytes.length);
  out.set(bytes);
  return out;
}
