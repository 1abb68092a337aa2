import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import { encodeBase58 } from '../domain/base58.js';
import type { PublicKey } from '../domain/public-key.js';
import { DEFAULT_TENANT, type TenantId } from '../domain/tenant.js';
import { type DomainError, domainError } from '../errors.js';
import type { KeystorePort } from '../ports/keystore.js';

export interface InMemoryKeystore extends KeystorePort {
  /** Public keys held, in creation order. */
  list(): readonly PublicKey[];
}

/**
 * Ed25519 keys held as non-extractable WebCrypto keys: signatures are real, so a test can verify
 * them (or land them on a local chain), but no secret is ever readable.
 */
export function createInMemoryKeystore(): InMemoryKeystore {
  const keys = new Map<string, CryptoKey>();
  // Managed accounts only: a named (service) key has no tenant.
  const tenants = new Map<string, TenantId>();
  const names = new Map<string, Promise<PublicKey>>();

  const generate = (): ResultAsync<PublicKey, DomainError> =>
    ResultAsync.fromPromise(
      (async () => {
        const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, [
          'sign',
          'verify',
        ])) as CryptoKeyPair;
        const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
        const publicKey = encodeBase58(raw) as PublicKey;
        keys.set(publicKey, pair.privateKey);
        return publicKey;
      })(),
      () => domainError('INTERNAL', 'could not generate a keypair'),
    );

  return {
    list: () => [...keys.keys()] as PublicKey[],
    create: (_label, tenant) =>
      generate().map((publicKey) => {
        tenants.set(publicKey, tenant ?? DEFAULT_TENANT);
        return publicKey;
      }),
    named(name) {
      // Sharing the pending promise makes concurrent first uses of a name agree on one key.
      let pending = names.get(name);
      if (!pending) {
        pending = generate().match(
          (pk) => pk,
          (e) => {
            names.delete(name);
            throw e;
          },
        );
        names.set(name, pending);
      }
      return ResultAsync.fromPromise(pending, (e) => e as DomainError);
    },
    has: (publicKey) => okAsync(keys.has(publicKey)),
    lookup(publicKey) {
      if (!keys.has(publicKey)) return okAsync(null);
      const tenant = tenants.get(publicKey);
      return okAsync(tenant ? { tenant } : {});
    },
    sign(publicKey, message) {
      const key = keys.get(publicKey);
      if (!key)
        return errAsync(
          domainError(
            'UNKNOWN_ACCOUNT',
            `account ${String(publicKey).slice(0, 64)} is not managed by this service`,
          ),
        );
      return ResultAsync.fromPromise(
        crypto.subtle.sign('Ed25519', key, message as BufferSource).then((sig) => new Uint8Array(sig)),
        () => domainError('INTERNAL', 'signing failed'),
      );
    },
  };
}
