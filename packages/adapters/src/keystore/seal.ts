import { decodeBase58, domainError, encodeBase58, type PublicKey } from '@token-actions/core';

/**
 * Sealing an Ed25519 seed under the master key (AES-256-GCM) and unsealing it into a signing key.
 * The public key is the additional authenticated data, so a ciphertext copied onto another row
 * does not decrypt. No storage here: the keystore reads and writes the sealed rows.
 */

// An Ed25519 PKCS#8 document is this fixed header followed by the 32-byte seed (RFC 8410).
const PKCS8_ED25519_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);
const SEED_BYTES = 32;
const IV_BYTES = 12;

/** A new key as it is stored: its public key, and its seed sealed with a fresh IV. */
export interface SealedKey {
  readonly publicKey: PublicKey;
  readonly ciphertext: Uint8Array;
  readonly iv: Uint8Array;
}

/** Imports the master key for sealing and unsealing; it must be exactly 32 bytes. */
export function importMasterKey(masterKey: Uint8Array): Promise<CryptoKey> {
  if (!(masterKey instanceof Uint8Array) || masterKey.length !== 32) {
    throw new Error('the keystore master key must be exactly 32 bytes');
  }
  return crypto.subtle.importKey('raw', copy(masterKey), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
}

/** Generates a key and seals its seed; the seed's plaintext is wiped once sealed. */
export async function sealNewKey(masterKey: Promise<CryptoKey>): Promise<SealedKey> {
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
}

/**
 * The stored seed of `publicKey` as a non-extractable signing key. The seed's plaintext is wiped
 * once imported; a seed that does not decrypt or import is an INTERNAL error naming the account.
 */
export async function unsealKey(
  masterKey: Promise<CryptoKey>,
  publicKey: PublicKey,
  sealed: { readonly ciphertext: Uint8Array; readonly iv: Uint8Array },
): Promise<CryptoKey> {
  const publicBytes = decodeBase58(publicKey);
  let seed: Uint8Array;
  try {
    seed = new Uint8Array(
      await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: copy(sealed.iv), additionalData: copy(publicBytes ?? new Uint8Array()) },
        await masterKey,
        copy(sealed.ciphertext),
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
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/** WebCrypto wants a buffer it owns; drivers hand out views into shared pools (Buffer). */
export function copy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(bytes.length);
  out.set(bytes);
  return out;
}
