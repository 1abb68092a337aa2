import { PublicKey, TransactionInstruction } from '@solana/web3.js';

/**
 * agave's `parse_signers`: one signer is named by its role; a multisig is named by its role's multisig
 * field and followed by the signers after it.
 */
export function withSigners(
  info: Record<string, unknown>,
  accounts: readonly string[],
  lastNonsigner: number,
  ownerField: string,
  multisigField: string,
): Record<string, unknown> {
  const owner = accounts[lastNonsigner];
  if (accounts.length > lastNonsigner + 1) {
    if (owner !== undefined) info[multisigField] = owner;
    info.signers = accounts.slice(lastNonsigner + 1);
  } else if (owner !== undefined) {
    info[ownerField] = owner;
  }
  return info;
}

/** A web3.js instruction for @solana/spl-token's decoders; only the data and account order matter to them. */
export function web3Instruction(programId: string, accounts: readonly string[], data: Uint8Array) {
  return new TransactionInstruction({
    programId: new PublicKey(programId),
    keys: accounts.map((account) => ({ pubkey: new PublicKey(account), isSigner: false, isWritable: false })),
    data: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
  });
}
