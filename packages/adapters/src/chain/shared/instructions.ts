import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  AuthorityType,
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMetadataPointerInstruction,
  createInitializeMintInstruction,
  createMintToCheckedInstruction,
  createSetAuthorityInstruction,
  createTransferCheckedInstruction,
  ExtensionType,
  getMintLen,
  LENGTH_SIZE,
  TOKEN_2022_PROGRAM_ID,
  TYPE_SIZE,
} from '@solana/spl-token';
import { createInitializeInstruction, pack, type TokenMetadata } from '@solana/spl-token-metadata';
import { ComputeBudgetProgram, PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import { keyName } from './keys.js';

export const MAX_COMPUTE_UNIT_LIMIT = 1_400_000;

/** SPL Memo v2: every account listed must sign, which is how a wallet co-signs a transaction it
 * otherwise takes no part in. */
export const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

export function signedMemo(signer: PublicKey, text: string): TransactionInstruction {
  return new TransactionInstruction({
    programId: MEMO_PROGRAM_ID,
    keys: [{ pubkey: signer, isSigner: true, isWritable: false }],
    data: Buffer.from(text, 'utf8'),
  });
}

export function computeBudgetInstructions(limit: number, microLamports: bigint): TransactionInstruction[] {
  return [
    ComputeBudgetProgram.setComputeUnitLimit({ units: limit }),
    ComputeBudgetProgram.setComputeUnitPrice({ microLamports }),
  ];
}

// Deriving an associated token address costs ~0.5 ms (a curve check per bump in pure JS), and the
// same owners come back again and again.
const ataCache = new Map<string, AssociatedTokenAccount>();
const ATA_CACHE_LIMIT = 50_000;

export interface AssociatedTokenAccount {
  readonly address: PublicKey;
  /** `address` in base58, as the chain's reads take it. */
  readonly base58: string;
  /** The bump seed: the associated token program tries 255 down to it when it derives the address. */
  readonly bump: number;
}

export function associatedTokenAccount(
  mint: PublicKey,
  owner: PublicKey,
  tokenProgram: PublicKey,
): AssociatedTokenAccount {
  const key = `${keyName(mint)}:${keyName(owner)}:${keyName(tokenProgram)}`;
  const cached = ataCache.get(key);
  if (cached) return cached;
  // As getAssociatedTokenAddressSync with an owner allowed off the curve (a pool's vault), with the bump.
  const [address, bump] = PublicKey.findProgramAddressSync(
    [owner.toBuffer(), tokenProgram.toBuffer(), mint.toBuffer()],
    ASSOCIATED_TOKEN_PROGRAM_ID,
  );
  if (ataCache.size >= ATA_CACHE_LIMIT) ataCache.clear();
  const account = { address, base58: address.toBase58(), bump };
  ataCache.set(key, account);
  return account;
}

export function associatedTokenAddress(
  mint: PublicKey,
  owner: PublicKey,
  tokenProgram: PublicKey,
): PublicKey {
  return associatedTokenAccount(mint, owner, tokenProgram).address;
}

export function solTransfer(from: PublicKey, to: PublicKey, lamports: bigint): TransactionInstruction[] {
  return [SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports })];
}

/** `amount` from `from`'s associated token account (`source`) to `to`'s (`destination`). */
export interface TokenTransferArgs {
  readonly mint: PublicKey;
  readonly tokenProgram: PublicKey;
  readonly decimals: number;
  readonly from: PublicKey;
  readonly to: PublicKey;
  readonly source: AssociatedTokenAccount;
  readonly destination: AssociatedTokenAccount;
  readonly amount: bigint;
}

/** The recipient's associated token account made if missing (`payer` pays its rent), then the transfer. */
export function tokenTransfer(payer: PublicKey, args: TokenTransferArgs): TransactionInstruction[] {
  const source = args.source.address;
  const destination = args.destination.address;
  return [
    createAssociatedTokenAccountIdempotentInstruction(
      payer,
      destination,
      args.to,
      args.mint,
      args.tokenProgram,
    ),
    createTransferCheckedInstruction(
      source,
      args.mint,
      destination,
      args.from,
      args.amount,
      args.decimals,
      [],
      args.tokenProgram,
    ),
  ];
}

export interface NftMintArgs {
  readonly payer: PublicKey;
  readonly mint: PublicKey;
  readonly authority: PublicKey;
  readonly owner: PublicKey;
  readonly name: string;
  readonly symbol: string;
  readonly uri: string;
  readonly rentExemptLamports: (space: number) => bigint;
}

/** A Token-2022 NFT whose metadata lives in the mint itself (metadata pointer -> the mint). */
export function nftMint(args: NftMintArgs): TransactionInstruction[] {
  const program = TOKEN_2022_PROGRAM_ID;
  const metadata: TokenMetadata = {
    updateAuthority: args.authority,
    mint: args.mint,
    name: args.name,
    symbol: args.symbol,
    uri: args.uri,
    additionalMetadata: [],
  };
  // The account is created just large enough for the pointer: token-metadata's initialize
  // reallocates it to hold the metadata, so only the rent has to cover the final size up front.
  const space = getMintLen([ExtensionType.MetadataPointer]);
  const finalSize = space + TYPE_SIZE + LENGTH_SIZE + pack(metadata).length;
  const ownerAccount = associatedTokenAddress(args.mint, args.owner, program);
  return [
    SystemProgram.createAccount({
      fromPubkey: args.payer,
      newAccountPubkey: args.mint,
      lamports: Number(args.rentExemptLamports(finalSize)),
      space,
      programId: program,
    }),
    createInitializeMetadataPointerInstruction(args.mint, args.authority, args.mint, program),
    createInitializeMintInstruction(args.mint, 0, args.authority, null, program),
    createInitializeInstruction({
      programId: program,
      metadata: args.mint,
      updateAuthority: args.authority,
      mint: args.mint,
      mintAuthority: args.authority,
      name: args.name,
      symbol: args.symbol,
      uri: args.uri,
    }),
    createAssociatedTokenAccountIdempotentInstruction(
      args.payer,
      ownerAccount,
      args.owner,
      args.mint,
      program,
    ),
    createMintToCheckedInstruction(args.mint, ownerAccount, args.authority, 1n, 0, [], program),
    createSetAuthorityInstruction(args.mint, args.authority, AuthorityType.MintTokens, null, [], program),
  ];
}

export { PublicKey, TOKEN_2022_PROGRAM_ID };
