import { decodeBase58 } from '@token-actions/core';

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
}

export function siwsMessage(fields: SiwsFields): string {
  const lines = [
    `URI: ${fields.uri}`,
    'Version: 1',
    ...(fields.chainId ? [`Chain ID: ${fields.chainId}`] : []),
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt}`,
    `Expiration Time: ${fields.expirationTime}`,
  ];
  return `${fields.domain} wants you to sign in with your Solana account:\n${fields.address}\n\n${fields.statement}\n\n${lines.join('\n')}`;
}

/** Ed25519 check through WebCrypto (Node 20+, Deno, workerd): no key material is held here. */
export async function verifyWalletSignature(
  address: string,
  message: string,
  signature: Uint8Array,
): Promise<boolean> {
  const publicKey = decodeBase58(address);
  if (publicKey?.length !== 32 || signature.length !== 64) return false;
  try {
    const key = await crypto.subtle.importKey('raw', publicKey as BufferSource, { name: 'Ed25519' }, false, [
      'verify',
    ]);
    return await crypto.subtle.verify(
      { name: 'Ed25519' },
      key,
      signature as BufferSource,
      new TextEncoder().encode(message) as BufferSource,
    );
  } catch {
    // A 32-byte string that is not a valid curve point cannot have signed anything.
    return false;
  }
}
