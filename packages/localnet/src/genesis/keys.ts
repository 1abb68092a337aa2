import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';

/** A key the localnet itself holds (its mint authority and faucet, its mints). Signs through
 * Node's native Ed25519: the pure-JS signer of @solana/web3.js v1 costs ~1.5 ms a signature. */
export interface LocalSigner {
  readonly publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

// DER header of a PKCS#8 Ed25519 private key; the 32-byte seed follows it.
const PKCS8_ED25519_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);

export function signerFromSeed(seed: Uint8Array): LocalSigner {
  if (seed.length !== 32) throw new Error('an Ed25519 seed is 32 bytes');
  const der = new Uint8Array(PKCS8_ED25519_PREFIX.length + 32);
  der.set(PKCS8_ED25519_PREFIX, 0);
  der.set(seed, PKCS8_ED25519_PREFIX.length);
  const privateKey = createPrivateKey({ key: Buffer.from(der), format: 'der', type: 'pkcs8' });
  // An Ed25519 SPKI is a fixed 12-byte header followed by the raw public key (three keys at boot:
  // the cheaper JWK export does not matter here).
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return {
    publicKey: new Uint8Array(spki.subarray(spki.length - 32)),
    sign: (message) => new Uint8Array(sign(null, message, privateKey)),
  };
}

/** Derives independent seeds from one localnet seed, so its keys survive restarts. */
export function deriveSeed(root: Uint8Array, label: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(root).update(`token-actions/localnet/${label}`).digest());
}
