import type { LocalSigner } from './signer.js';

/**
 * A fresh Ed25519 key through WebCrypto only: what an edge runtime (workerd) offers everywhere,
 * whatever bundler built the worker. The private key never leaves a non-extractable CryptoKey.
 */
export async function randomWebSigner(): Promise<LocalSigner> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const publicKey = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  return {
    publicKey,
    async sign(message) {
      const copy = new Uint8Array(message.length);
      copy.set(message);
      return new Uint8Array(await crypto.subtle.sign('Ed25519', pair.privateKey, copy));
    },
  };
}
