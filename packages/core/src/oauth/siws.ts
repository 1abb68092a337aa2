import { decodeBase58 } from '../domain/base58.js';

/**
 * Sign-In With Solana: the text a wallet signs, in the field order of the Solana wallet standard
 * (`createSignInMessageText`), so wallets that parse SIWS messages recognise it. The server builds
 * the text both when it hands out a challenge and when it checks a signature, from the same
 * fields, so the signature covers exactly what the consent page showed.
 */
export interface SiwsFields {
  readonly domain: string;
  readonly address: string;
  readonly statement: string;
  readonly uri: string;
  readonly chainId?: string;
  readonly nonce: string;
  readonly issuedAt: string;
  readonly expirationTime: string;
  /** SIWS `Request ID`: which authorization request this sign-in approves. */
  readonly requestId?: string;
}

export function siwsMessage(fields: SiwsFields): string {
  const lines = [
    `URI: ${fields.uri}`,
    'Version: 1',
    ...(fields.chainId ? [`Chain ID: ${fields.chainId}`] : []),
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt}`,
    `Expiration Time: ${fields.expirationTime}`,
    ...(fields.requestId ? [`Request ID: ${fields.requestId}`] : []),
  ];
  return `${fields.domain} wants you to sign in with your Solana account:\n${fields.address}\n\n${fields.statement}\n\n${lines.join('\n')}`;
}

/** Checks that `address` signed `message`; injectable so a runtime without Ed25519 can bring its own. */
export type WalletSignatureVerifier = (
  address: string,
  message: string,
  signature: Uint8Array,
) => Promise<boolean>;

/** Ed25519 check through Web Crypto (Node 20+, Deno, workerd): no key material is held here. */
export const verifyWalletSignature: WalletSignatureVerifier = async (address, message, signature) => {
  const publicKey = decodeBase58(address);
  if (publicKey?.length !== 32 || signature.length !== 64) return false;
  try {
    const subtle = globalThis.crypto.subtle;
    const key = await subtle.importKey('raw', publicKey as BufferSource, { name: 'Ed25519' }, false, [
      'verify',
    ]);
    return await subtle.verify(
      { name: 'Ed25519' },
      key,
      signature as BufferSource,
      new TextEncoder().encode(message) as BufferSource,
    );
  } catch {
    // A 32-byte string that is not a valid curve point cannot have signed anything.
    return false;
  }
};
