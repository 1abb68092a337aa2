import {
  type TransactionInstruction,
  PublicKey as Web3Key,
  type PublicKey as Web3PublicKey,
} from '@solana/web3.js';
import {
  assembleTransaction,
  type Currency,
  compileLegacyMessage,
  type DomainError,
  domainError,
  encodeBase58,
  isPublicKey,
  type Signature,
  U64_MAX,
} from '@token-actions/core';
import { err, ok, type Result } from 'neverthrow';
import { issueBlockhash } from '../clock/advance.js';
import { ownMint } from '../genesis/genesis.js';
import { mintTo, transferLamports, uniqueBudget } from '../genesis/instructions.js';
import type { LocalSigner } from '../genesis/keys.js';
import type { LocalnetState } from '../state.js';
import type { WireRejection } from '../types.js';
import { submit } from './submit.js';

export function toDomain(rejected: WireRejection): DomainError {
  return domainError(rejected.code, rejected.message, {
    context: { reason: rejected.reason, ...(rejected.err === undefined ? {} : { error: rejected.err }) },
  });
}

/** Builds, signs with the localnet's own keys and lands a transaction; a landed failure is an error. */
export function submitLocal(
  state: LocalnetState,
  instructions: TransactionInstruction[],
  signers: readonly LocalSigner[],
): Result<Signature, DomainError> {
  const payer = signers[0]!;
  // Identical airdrops within one blockhash would share a signature and land once; the
  // compute-unit limit (free at price 0) tells them apart.
  const nonce = 200_000 + (state.history.localTransactions++ % 1_000_000);
  const { blockhash } = issueBlockhash(state, false);
  const { accountKeys, numRequiredSignatures, bytes } = compileLegacyMessage(
    new Web3Key(payer.publicKey),
    [...uniqueBudget(nonce), ...instructions],
    blockhash,
  );
  const bySigner = new Map(signers.map((s) => [encodeBase58(s.publicKey), s]));
  const signatures = accountKeys.slice(0, numRequiredSignatures).map((key) => {
    const signer = bySigner.get(key);
    if (!signer) throw new Error(`no local key for signer ${key}`);
    return signer.sign(bytes);
  });
  return submit(state, assembleTransaction(bytes, signatures))
    .andThen((id) => {
      // The faucet is not on the hot path: it syncs on this thread rather than wait for a group.
      state.disk.sync();
      return ok(id);
    })
    .mapErr(toDomain)
    .andThen((id) => {
      const status = state.ledger.status(id, state.clock.slot);
      return status?.error === undefined
        ? ok(id)
        : err(
            domainError('SIMULATION_FAILED', `localnet transaction failed: ${status.error}`, {
              context: { id },
            }),
          );
    });
}

function recipientOf(to: unknown): Result<Web3PublicKey, DomainError> {
  if (!isPublicKey(to)) return err(domainError('INVALID_PUBLIC_KEY', 'to must be a base58 public key'));
  return ok(new Web3Key(to));
}

function checkAmount(amount: unknown): Result<bigint, DomainError> {
  if (typeof amount !== 'bigint' || amount <= 0n)
    return err(domainError('INVALID_AMOUNT', 'amount must be greater than zero'));
  if (amount > U64_MAX) return err(domainError('INVALID_AMOUNT', 'amount exceeds u64'));
  return ok(amount);
}

/** The faucet: SOL from the localnet's own account, or its own stablecoin and project token minted. */
export function airdrop(
  state: LocalnetState,
  to: string,
  currency: Currency,
  amount: bigint,
): Result<Signature, DomainError> {
  const { keys, svm } = state;
  return checkAmount(amount).andThen((units) =>
    recipientOf(to).andThen((recipient): Result<Signature, DomainError> => {
      if (currency.mint === undefined) {
        if (units > svm.lamports(keys.authority.publicKey) / 2n) {
          return err(
            domainError('INVALID_AMOUNT', 'airdrop amount exceeds what the localnet faucet can give'),
          );
        }
        return submitLocal(state, transferLamports(keys.authorityKey, recipient, units), [keys.authority]);
      }
      const own = ownMint(state, currency.mint);
      if (!own) return err(domainError('NOT_SUPPORTED', `the localnet cannot mint ${currency.code}`));
      const instructions = mintTo(
        keys.authorityKey,
        new Web3Key(currency.mint),
        own.decimals,
        recipient,
        units,
      );
      return submitLocal(state, instructions, [keys.authority]).mapErr((error) =>
        /overflow/i.test(error.message)
          ? domainError('INVALID_AMOUNT', 'airdrop would overflow the token supply')
          : error,
      );
    }),
  );
}
