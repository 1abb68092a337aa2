import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { type TransactionInstruction, PublicKey as Web3PublicKey } from '@solana/web3.js';
import {
  type ChainIntent,
  type CompiledMessage,
  type Currency,
  compileLegacyMessage,
  type DomainError,
  domainError,
  encodeBase58,
  formatAmount,
  isPublicKey,
  type MintNftIntent,
  type PreparedTransaction,
  type PublicKey,
  type TransferIntent,
  type TransfersIntent,
  U64_MAX,
} from '@token-actions/core';
import { err, ok, type Result } from 'neverthrow';
import {
  associatedTokenAccount,
  computeBudgetInstructions,
  MAX_COMPUTE_UNIT_LIMIT,
  nftMint,
  signedMemo,
  solTransfer,
  type TokenTransferArgs,
  tokenTransfer,
} from './instructions.js';
import { web3Key } from './keys.js';
import type { LocalSigner } from './signer.js';

/** What both chain adapters share between reading the chain and signing: turning an intent into
 * instructions, sizing the compute budget, and compiling the message a keystore signs. */

export type Outcome<T> = Result<T, DomainError>;

export const LAMPORTS_PER_SIGNATURE = 5_000n;
export const MAX_TRANSACTION_BYTES = 1232;
export const STATUS_BATCH_LIMIT = 256;
export const PRIORITIZATION_FEE_ACCOUNT_LIMIT = 128;

// Rent as every current cluster charges it: 3,480 lamports per byte-year, exempt at two years,
// with 128 bytes of account overhead.
const RENT_LAMPORTS_PER_BYTE = 3_480n * 2n;
const ACCOUNT_OVERHEAD_BYTES = 128n;

export function standardRentExemption(space: number): bigint {
  return (ACCOUNT_OVERHEAD_BYTES + BigInt(space)) * RENT_LAMPORTS_PER_BYTE;
}

export function toKey(value: unknown, field: string): Outcome<Web3PublicKey> {
  if (!isPublicKey(value))
    return err(domainError('INVALID_PUBLIC_KEY', `${field} must be a base58 public key`));
  return ok(web3Key(value));
}

export function checkAmount(amount: unknown): Outcome<bigint> {
  if (typeof amount !== 'bigint' || amount <= 0n)
    return err(domainError('INVALID_AMOUNT', 'amount must be greater than zero'));
  if (amount > U64_MAX) return err(domainError('INVALID_AMOUNT', 'amount exceeds u64'));
  return ok(amount);
}

export function checkPrice(price: unknown): Outcome<bigint> {
  if (typeof price !== 'bigint' || price < 0n || price > U64_MAX) {
    return err(domainError('INVALID_INPUT', 'computeUnitPrice must be a non-negative u64'));
  }
  return ok(price);
}

export function priorityFeeLamports(microLamportsPerUnit: bigint, units: number): bigint {
  return (microLamportsPerUnit * BigInt(units) + 999_999n) / 1_000_000n;
}

/** Token amount of an SPL token account (classic or Token-2022): a u64 after mint and owner. */
export function tokenAccountAmount(data: Uint8Array): bigint {
  if (data.length < 72) return 0n;
  return new DataView(data.buffer, data.byteOffset + 64, 8).getBigUint64(0, true);
}

/** Owner of an SPL token account: the 32 bytes after its mint. */
export function tokenAccountOwner(data: Uint8Array): string | undefined {
  if (data.length < 72) return undefined;
  return encodeBase58(data.subarray(32, 64));
}

export function wireSize(messageBytes: Uint8Array, signatures: number): number {
  return 1 + 64 * signatures + messageBytes.length;
}

export function tokenProgramOf(currency: Currency): Web3PublicKey {
  return currency.tokenProgram ? web3Key(currency.tokenProgram) : TOKEN_PROGRAM_ID;
}

export interface BuiltIntent {
  readonly instructions: TransactionInstruction[];
  /** Keys the adapter holds for this transaction (an NFT's fresh mint) and signs with itself. */
  readonly localSigners: LocalSigner[];
  readonly mint?: Web3PublicKey;
  /** Lamports the fee payer itself moves (a SOL transfer it sends), beyond fees. */
  readonly feePayerSpend: bigint;
  /** When every instruction is a transfer (SOL, or SPL tokens to an associated token account made
   * if missing): what each moves, in order. See `landingPlan` for when that sizes it unsimulated. */
  readonly moves?: readonly Move[];
  /** For SPL transfers: where the sender's tokens are, so the adapter can check the balance first. */
  readonly tokenSource?: {
    /** The sender's associated token account, base58. */
    readonly account: string;
    readonly amount: bigint;
    readonly currency: Currency;
  };
}

export type Move = SolMove | TokenMove;

export interface SolMove {
  readonly kind: 'sol';
  readonly from: Web3PublicKey;
  readonly to: Web3PublicKey;
  readonly lamports: bigint;
}

/** A token transfer as `tokenTransfer` builds it: the recipient's account is created if missing. */
export interface TokenMove extends TokenTransferArgs {
  readonly kind: 'token';
}

function buildTransfer(intent: TransferIntent, feePayer: Web3PublicKey): Outcome<BuiltIntent> {
  return checkAmount(intent.amount).andThen((amount) =>
    toKey(intent.from, 'from').andThen((from) =>
      toKey(intent.to, 'to').andThen((to): Outcome<BuiltIntent> => {
        const currency = intent.currency;
        if (currency.mint === undefined) {
          return ok({
            instructions: solTransfer(from, to, amount),
            localSigners: [],
            feePayerSpend: from.equals(feePayer) ? amount : 0n,
            moves: [{ kind: 'sol', from, to, lamports: amount }],
          });
        }
        if (
          !isPublicKey(currency.mint) ||
          (currency.tokenProgram !== undefined && !isPublicKey(currency.tokenProgram))
        ) {
          return err(domainError('UNKNOWN_CURRENCY', `${currency.code} has no valid mint`));
        }
        const mint = web3Key(currency.mint);
        const tokenProgram = tokenProgramOf(currency);
        const source = associatedTokenAccount(mint, from, tokenProgram);
        const destination = associatedTokenAccount(mint, to, tokenProgram);
        const move: TokenMove = {
          kind: 'token',
          mint,
          decimals: currency.decimals,
          tokenProgram,
          from,
          to,
          source,
          destination,
          amount,
        };
        return ok({
          instructions: tokenTransfer(feePayer, move),
          localSigners: [],
          feePayerSpend: 0n,
          moves: [move],
          tokenSource: { account: source.base58, amount, currency },
        });
      }),
    ),
  );
}

function buildMint(
  intent: MintNftIntent,
  feePayer: Web3PublicKey,
  rentExempt: (space: number) => bigint,
  mintSigner: LocalSigner | undefined,
): Outcome<BuiltIntent> {
  if (!mintSigner) return err(domainError('INTERNAL', 'minting needs a fresh mint key'));
  for (const field of ['name', 'symbol', 'uri'] as const) {
    if (typeof intent[field] !== 'string')
      return err(domainError('INVALID_INPUT', `${field} must be a string`));
  }
  const cosigner = intent.cosigner === undefined ? ok(undefined) : toKey(intent.cosigner, 'cosigner');
  if (cosigner.isErr()) return err(cosigner.error);
  return toKey(intent.authority, 'authority').andThen((authority) =>
    toKey(intent.owner, 'owner').map((owner) => {
      const mint = new Web3PublicKey(mintSigner.publicKey);
      const memo = cosigner.value
        ? [signedMemo(cosigner.value, `token-actions:mint:${mint.toBase58()}`)]
        : [];
      return {
        instructions: [
          ...nftMint({
            payer: feePayer,
            mint,
            authority,
            owner,
            name: intent.name,
            symbol: intent.symbol,
            uri: intent.uri,
            rentExemptLamports: rentExempt,
          }),
          ...memo,
        ],
        localSigners: [mintSigner],
        mint,
        feePayerSpend: 0n,
      };
    }),
  );
}

/** Legs in order, in one transaction (all land or none); every `from` signs. No single token
 * source is checked up front: the simulation refuses a leg its sender cannot pay. */
function buildTransfers(intent: TransfersIntent, feePayer: Web3PublicKey): Outcome<BuiltIntent> {
  if (!Array.isArray(intent.legs) || intent.legs.length === 0 || intent.legs.length > 8) {
    return err(domainError('INVALID_INPUT', 'a transfers intent has 1 to 8 legs'));
  }
  const instructions: TransactionInstruction[] = [];
  let feePayerSpend = 0n;
  const moves: Move[] = [];
  for (const leg of intent.legs) {
    const built = buildTransfer({ kind: 'transfer', ...leg }, feePayer);
    if (built.isErr()) return err(built.error);
    instructions.push(...built.value.instructions);
    feePayerSpend += built.value.feePayerSpend;
    moves.push(...built.value.moves!);
  }
  return ok({ instructions, localSigners: [], feePayerSpend, moves });
}

export function buildIntent(
  intent: ChainIntent,
  feePayer: Web3PublicKey,
  rentExempt: (space: number) => bigint,
  mintSigner?: LocalSigner,
): Outcome<BuiltIntent> {
  if (intent?.kind === 'transfer') return buildTransfer(intent, feePayer);
  if (intent?.kind === 'transfers') return buildTransfers(intent, feePayer);
  if (intent?.kind === 'mint_nft') return buildMint(intent, feePayer, rentExempt, mintSigner);
  return err(domainError('INVALID_INPUT', 'unknown intent kind'));
}

export function insufficientTokens(
  source: NonNullable<BuiltIntent['tokenSource']>,
  owner: string,
  held: bigint,
) {
  const { currency, amount } = source;
  return domainError(
    'INSUFFICIENT_FUNDS',
    `${owner} holds ${formatAmount(held, currency.decimals)} ${currency.code}, ` +
      `${formatAmount(amount, currency.decimals)} needed`,
  );
}

const TOO_LARGE = 'the transaction would exceed 1232 bytes (name, symbol or uri too long?)';

/** The message to simulate: the real instructions under the maximum compute-unit limit, at price 0. */
export function compileTrial(
  feePayer: Web3PublicKey,
  built: BuiltIntent,
  blockhash: string,
): Outcome<CompiledMessage> {
  let trial: CompiledMessage;
  try {
    trial = compileLegacyMessage(
      feePayer,
      [...computeBudgetInstructions(MAX_COMPUTE_UNIT_LIMIT, 0n), ...built.instructions],
      blockhash,
    );
  } catch (cause) {
    if (cause instanceof RangeError) return err(domainError('INVALID_INPUT', TOO_LARGE));
    throw cause;
  }
  if (wireSize(trial.bytes, trial.numRequiredSignatures) > MAX_TRANSACTION_BYTES) {
    return err(domainError('INVALID_INPUT', TOO_LARGE));
  }
  return ok(trial);
}

/** Simulated units plus 10% and 1,000, plus a per-prepare nudge: two identical intents prepared
 * under one blockhash would otherwise compile to the same message and land once. */
export function computeUnitLimitFor(consumed: bigint, nudge: number): number {
  const limit = (consumed * 11n + 9n) / 10n + 1_000n + BigInt(nudge % 10_000);
  return Number(limit > BigInt(MAX_COMPUTE_UNIT_LIMIT) ? BigInt(MAX_COMPUTE_UNIT_LIMIT) : limit);
}

export interface FinalizeArgs {
  readonly feePayer: Web3PublicKey;
  readonly built: BuiltIntent;
  readonly blockhash: string;
  readonly lastValidBlockHeight: bigint;
  readonly computeUnitLimit: number;
  readonly computeUnitPrice: bigint;
}

/** Compiles the final message and signs it with the adapter's own keys. */
export async function finalizePrepared(args: FinalizeArgs): Promise<PreparedTransaction> {
  const { feePayer, built, computeUnitLimit, computeUnitPrice } = args;
  const final = compileLegacyMessage(
    feePayer,
    [...computeBudgetInstructions(computeUnitLimit, computeUnitPrice), ...built.instructions],
    args.blockhash,
  );
  const signatureCount = final.numRequiredSignatures;
  const signers = final.accountKeys.slice(0, signatureCount) as PublicKey[];
  const presigned: Record<string, Uint8Array> = {};
  for (const signer of built.localSigners)
    presigned[encodeBase58(signer.publicKey)] = await signer.sign(final.bytes);
  const writableAccounts = final.accountKeys.filter((_, index) => final.writable[index]) as PublicKey[];
  return {
    message: final.bytes,
    signers,
    presigned,
    blockhash: args.blockhash,
    lastValidBlockHeight: args.lastValidBlockHeight,
    computeUnitLimit,
    computeUnitPrice,
    feeLamports:
      LAMPORTS_PER_SIGNATURE * BigInt(signatureCount) +
      priorityFeeLamports(computeUnitPrice, computeUnitLimit),
    writableAccounts,
    ...(built.mint ? { mint: built.mint.toBase58() as PublicKey } : {}),
  };
}
