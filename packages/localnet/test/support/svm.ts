import {
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  type Signer,
  Transaction,
  type TransactionInstruction,
  VersionedTransaction,
} from '@solana/web3.js';
import { LiteSVM } from 'litesvm';
import type { LiteSvm as NativeSvm } from 'litesvm/dist/internal';
import type { AccountState } from '../../src/parsed/account.js';
import type { InnerInstructions } from '../../src/parsed/transaction.js';

/**
 * A real SVM (LiteSVM, with the SPL Token, Token-2022, associated-token and memo programs built in)
 * for tests: the account bytes the parsers read are the programs' own output, never hand-made.
 */
export interface TestChain {
  readonly payer: Keypair;
  /** Executes the instructions, failing the test with the program logs when the transaction fails. */
  send(instructions: readonly TransactionInstruction[], signers?: readonly Signer[]): Landed;
  read(address: PublicKey | string): AccountState | undefined;
  /** Every account of the given addresses as it is now (for pre-execution snapshots). */
  snapshot(addresses: readonly string[]): Map<string, AccountState>;
  rent(space: number): bigint;
}

export interface Landed {
  readonly transaction: VersionedTransaction;
  readonly logs: readonly string[];
  readonly innerInstructions: readonly InnerInstructions[];
}

function nativeOf(svm: LiteSVM): NativeSvm {
  return (svm as unknown as { inner: NativeSvm }).inner;
}

export function createTestChain(): TestChain {
  const native = nativeOf(new LiteSVM());
  const payer = Keypair.generate();
  native.airdrop(payer.publicKey.toBytes(), BigInt(1_000 * LAMPORTS_PER_SOL));
  const read = (address: PublicKey | string): AccountState | undefined => {
    const key = typeof address === 'string' ? new PublicKey(address) : address;
    const account = native.getAccount(key.toBytes());
    if (!account || (account.lamports() === 0n && account.data().length === 0)) return undefined;
    return {
      lamports: account.lamports(),
      owner: new PublicKey(account.owner()).toBase58(),
      data: account.data(),
      executable: account.executable(),
    };
  };
  return {
    payer,
    read,
    rent: (space) => native.minimumBalanceForRentExemption(BigInt(space)),
    snapshot: (addresses) => {
      const states = new Map<string, AccountState>();
      for (const address of addresses) {
        const state = read(address);
        if (state) states.set(address, state);
      }
      return states;
    },
    send: (instructions, signers = []) => {
      const tx = new Transaction().add(...instructions);
      tx.recentBlockhash = native.latestBlockhash();
      tx.feePayer = payer.publicKey;
      tx.sign(payer, ...signers);
      const wire = tx.serialize();
      const result = native.sendLegacyTransaction(wire);
      if ('err' in result) {
        throw new Error(`transaction failed: ${result.err().toString()}\n${result.meta().logs().join('\n')}`);
      }
      native.expireBlockhash();
      return {
        transaction: VersionedTransaction.deserialize(wire),
        logs: result.logs(),
        innerInstructions: result
          .innerInstructions()
          .map((list, index) => ({
            index,
            instructions: list.map((inner) => ({
              programIdIndex: inner.instruction().programIdIndex(),
              accounts: [...inner.instruction().accounts()],
              data: inner.instruction().data(),
              stackHeight: inner.stackHeight(),
            })),
          }))
          .filter((entry) => entry.instructions.length > 0),
      };
    },
  };
}
