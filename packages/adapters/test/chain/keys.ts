import {
  assembleTransaction,
  encodeBase58,
  type PreparedTransaction,
  type PublicKey,
} from '@token-actions/core';
import { randomSigner } from '../../src/chain/shared/ed25519.js';

/** Tests play the keystore: they hold the keys and sign what the chain prepared. */
export interface TestKey {
  readonly address: PublicKey;
  sign(message: Uint8Array): Uint8Array;
}

export function newKey(): TestKey {
  const signer = randomSigner();
  return { address: encodeBase58(signer.publicKey) as PublicKey, sign: (message) => signer.sign(message) };
}

export function signPrepared(prepared: PreparedTransaction, keys: readonly TestKey[]): Uint8Array {
  const byAddress = new Map(keys.map((key) => [key.address as string, key]));
  const signatures = prepared.signers.map((signer) => {
    const presigned = prepared.presigned[signer];
    if (presigned) return presigned;
    const key = byAddress.get(signer);
    if (!key) throw new Error(`test holds no key for signer ${signer}`);
    return key.sign(prepared.message);
  });
  return assembleTransaction(prepared.message, signatures);
}
