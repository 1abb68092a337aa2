import { createPrivateKey, randomBytes, sign } from 'node:crypto';

/** Node's native Ed25519, synchronous: the pure-JS signer of @solana/web3.js v1 costs ~1.5 ms a
 * signature. The in-process chain uses it; edge runtimes use `randomWebSigner` instead. */
export interface NodeSigner {
  readonly publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

/**
 * A fresh key, from 32 random bytes imported as a raw JWK private key (about 45 µs, as fast as
 * generating one).
 *
 * Not `generateKeyPairSync('ed25519')`: on Node 20 a key pair it made, exported while the
 * generator's job waits for collection, can deadlock the thread for good. The export holds the
 * key's mutex, a collection it triggers destroys the job, and the job's destructor takes the
 * same mutex. A loop of generate-and-export hangs within 20,000 keys. An imported key has no job.
 */
export function randomSigner(): NodeSigner {
  // Node reads only `d` of a private OKP key; `x` must be a string, and the export computes it.
  const privateKey = createPrivateKey({
    format: 'jwk',
    key: { kty: 'OKP', crv: 'Ed25519', d: randomBytes(32).toString('base64url'), x: '' },
  });
  const { x } = privateKey.export({ format: 'jwk' });
  return {
    publicKey: new Uint8Array(Buffer.from(x!, 'base64url')),
    sign: (message) => new Uint8Array(sign(null, message, privateKey)),
  };
}
