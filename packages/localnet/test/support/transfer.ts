import { type Keypair, type PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { encodeBase58 } from '@token-actions/core';
import type { Localnet } from '../../src/index.js';

/** A SOL transfer signed by `from` with the localnet's current blockhash: its wire bytes and id. */
export async function signedTransfer(
  chain: Pick<Localnet, 'latestBlockhash'>,
  from: Keypair,
  to: PublicKey,
  lamports: number,
): Promise<{ wire: Uint8Array; id: string }> {
  const { blockhash } = await chain.latestBlockhash();
  const tx = new Transaction({ feePayer: from.publicKey, recentBlockhash: blockhash }).add(
    SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports }),
  );
  tx.sign(from);
  return { wire: tx.serialize(), id: encodeBase58(tx.signature!) };
}
