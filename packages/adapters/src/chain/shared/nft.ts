import { ExtensionType, getExtensionData, TOKEN_2022_PROGRAM_ID, unpackMint } from '@solana/spl-token';
import { unpack as unpackTokenMetadata } from '@solana/spl-token-metadata';
import type { PublicKey as Web3PublicKey } from '@solana/web3.js';
import type { NftMetadata, PublicKey } from '@token-actions/core';

/**
 * Reads an NFT from its Token-2022 mint account: the metadata extension's name, symbol, uri and
 * update authority, with supply, decimals and mint authority. Null when the account is not a
 * Token-2022 mint with metadata. The owner is found differently by each adapter and added by it.
 */
export function decodeNftMint(
  mint: Web3PublicKey,
  account: { readonly data: Uint8Array; readonly lamports: bigint | number },
): Omit<NftMetadata, 'owner'> | null {
  let parsed: ReturnType<typeof unpackMint>;
  try {
    parsed = unpackMint(
      mint,
      {
        data: Buffer.from(account.data),
        owner: TOKEN_2022_PROGRAM_ID,
        lamports: Number(account.lamports),
        executable: false,
      },
      TOKEN_2022_PROGRAM_ID,
    );
  } catch {
    return null;
  }
  const extension = getExtensionData(ExtensionType.TokenMetadata, parsed.tlvData);
  if (!extension) return null;
  const metadata = unpackTokenMetadata(extension);
  return {
    mint: mint.toBase58() as PublicKey,
    name: metadata.name,
    symbol: metadata.symbol,
    uri: metadata.uri,
    supply: parsed.supply,
    decimals: parsed.decimals,
    ...(metadata.updateAuthority
      ? { updateAuthority: metadata.updateAuthority.toBase58() as PublicKey }
      : {}),
    ...(parsed.mintAuthority ? { mintAuthority: parsed.mintAuthority.toBase58() as PublicKey } : {}),
  };
}
