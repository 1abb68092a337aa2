import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToCheckedInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import {
  ComputeBudgetProgram,
  type PublicKey,
  SystemProgram,
  type TransactionInstruction,
} from '@solana/web3.js';

/** The few transactions the localnet builds for itself: its mints, its faucet's transfers and mints. */

/** A compute-unit limit (free at price 0) that tells apart otherwise identical transactions. */
export function uniqueBudget(limit: number): TransactionInstruction[] {
  return [
    ComputeBudgetProgram.setComputeUnitLimit({ units: limit }),
    ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 0n }),
  ];
}

export function createMint(
  payer: PublicKey,
  mint: PublicKey,
  decimals: number,
  authority: PublicKey,
  rentExempt: bigint,
): TransactionInstruction[] {
  return [
    SystemProgram.createAccount({
      fromPubkey: payer,
      newAccountPubkey: mint,
      lamports: Number(rentExempt),
      space: MINT_SIZE,
      programId: TOKEN_PROGRAM_ID,
    }),
    createInitializeMint2Instruction(mint, decimals, authority, null, TOKEN_PROGRAM_ID),
  ];
}

/** Mints to the owner's associated token account, creating it when needed; `authority` pays too. */
export function mintTo(
  authority: PublicKey,
  mint: PublicKey,
  decimals: number,
  owner: PublicKey,
  amount: bigint,
): TransactionInstruction[] {
  const destination = getAssociatedTokenAddressSync(mint, owner, true, TOKEN_PROGRAM_ID);
  return [
    createAssociatedTokenAccountIdempotentInstruction(authority, destination, owner, mint, TOKEN_PROGRAM_ID),
    createMintToCheckedInstruction(mint, destination, authority, amount, decimals, [], TOKEN_PROGRAM_ID),
  ];
}

export function transferLamports(from: PublicKey, to: PublicKey, lamports: bigint): TransactionInstruction[] {
  return [SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports })];
}

export { MINT_SIZE };
