import { randomBytes } from 'node:crypto';
import { type Address, getTransactionDecoder, type Signature as KitSignature } from '@solana/kit';
import { ExtensionType, getExtensionData, TOKEN_PROGRAM_ID, unpackMint } from '@solana/spl-token';
import { unpack as unpackTokenMetadata } from '@solana/spl-token-metadata';
import { type TransactionInstruction, PublicKey as Web3PublicKey } from '@solana/web3.js';
import {
  assembleTransaction,
  type ChainIntent,
  type ChainPort,
  type ChainStatus,
  type ClusterInfo,
  Currencies,
  type Currency,
  type DomainError,
  domainError,
  encodeBase58,
  formatAmount,
  isPublicKey,
  type MintNftIntent,
  type NftMetadata,
  type PreparedTransaction,
  type PrepareOptions,
  type PrioritizationFee,
  type PublicKey,
  type Signature,
  type TransferIntent,
  U64_MAX,
} from '@token-actions/core';
import { FailedTransactionMetadata, LiteSVM, TransactionMetadata } from 'litesvm';
import { err, errAsync, ok, okAsync, type Result, type ResultAsync } from 'neverthrow';
import { compileLegacyMessage } from './compile.js';
import { deriveSeed, type LocalSigner, randomSigner, signerFromSeed } from './ed25519.js';
import { describeFailure } from './failure.js';
import {
  associatedTokenAddress,
  computeBudgetInstructions,
  createFungibleMint,
  MAX_COMPUTE_UNIT_LIMIT,
  nftMint,
  solTransfer,
  TOKEN_2022_PROGRAM_ID,
  tokenMintTo,
  tokenTransfer,
} from './instructions.js';
import { Ledger } from './ledger.js';
import {
  computeUnitPriceOf,
  isZero,
  type ParsedMessage,
  parseMessage,
  parseTransaction,
  writableKeys,
} from './message.js';

export interface LiteSvmChainConfig {
  /** 32 bytes from which the localnet derives its own keys (stablecoin mint, project mint, their
   * mint authority), so its addresses are the same after a restart. Random when absent. */
  readonly seed?: Uint8Array;
  /** Ticker of the project token; default PROJ. */
  readonly projectTicker?: string;
  /** Milliseconds between slots; default 400. 0 turns the timer off (advance with `tick`). */
  readonly slotIntervalMs?: number;
  /** Slots after landing until a transaction counts as confirmed; default 1. */
  readonly confirmationDepthSlots?: number;
  /** Slots after landing until a transaction counts as finalized; default 32. */
  readonly finalityDepthSlots?: number;
  /** Block heights a blockhash stays valid after it is issued; default 150. */
  readonly blockhashValiditySlots?: number;
  /** Reported in `cluster.rpcUrl`; default http://127.0.0.1:8899. */
  readonly rpcUrl?: string;
  /** Landed transactions remembered for statuses and dedupe; default 100,000. Older ones are
   * forgotten only once their blockhash has expired, so none can execute twice. */
  readonly historySize?: number;
}

export interface LocalnetChain extends ChainPort {
  readonly currencies: Currencies;
  /** The localnet's own key: mint authority of the stablecoin and the project token, and faucet. */
  readonly mintAuthority: PublicKey;
  /** The current slot (also the block height: the localnet skips no slot). */
  slot(): bigint;
  /** Advances `slots` slots (default 1), rotating the blockhash each slot. */
  tick(slots?: number): void;
  /** Credits lamports from the localnet's faucet at once; throws if that fails (a start-up helper). */
  fund(owner: PublicKey, lamports: bigint): Signature;
  /** Stops the slot timer. The chain keeps answering; `tick` still advances it. */
  close(): void;
}

const DEFAULTS = {
  projectTicker: 'PROJ',
  slotIntervalMs: 400,
  confirmationDepthSlots: 1,
  finalityDepthSlots: 32,
  blockhashValiditySlots: 150,
  rpcUrl: 'http://127.0.0.1:8899',
  historySize: 100_000,
} as const;

const LAMPORTS_PER_SIGNATURE = 5_000n;
const MAX_TRANSACTION_BYTES = 1232;
const FAUCET_LAMPORTS = 1_000_000_000n * 1_000_000_000n;
const STATUS_BATCH_LIMIT = 256;

type Outcome<T> = Result<T, DomainError>;

function positiveInteger(
  value: number | undefined,
  fallback: number,
  name: string,
  allowZero = false,
): number {
  const chosen = value ?? fallback;
  if (!Number.isSafeInteger(chosen) || chosen < 0 || (chosen === 0 && !allowZero)) {
    throw new Error(
      `${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got ${String(value)}`,
    );
  }
  return chosen;
}

function toKey(value: unknown, field: string): Outcome<Web3PublicKey> {
  if (!isPublicKey(value))
    return err(domainError('INVALID_PUBLIC_KEY', `${field} must be a base58 public key`));
  return ok(new Web3PublicKey(value));
}

function checkAmount(amount: unknown): Outcome<bigint> {
  if (typeof amount !== 'bigint' || amount <= 0n)
    return err(domainError('INVALID_AMOUNT', 'amount must be greater than zero'));
  if (amount > U64_MAX) return err(domainError('INVALID_AMOUNT', 'amount exceeds u64'));
  return ok(amount);
}

function priorityFeeLamports(microLamportsPerUnit: bigint, units: number): bigint {
  return (microLamportsPerUnit * BigInt(units) + 999_999n) / 1_000_000n;
}

/** Token amount of an SPL token account (classic or Token-2022): a u64 after mint and owner. */
function tokenAccountAmount(data: Uint8Array): bigint {
  if (data.length < 72) return 0n;
  return new DataView(data.buffer, data.byteOffset + 64, 8).getBigUint64(0, true);
}

function wireSize(messageBytes: Uint8Array, signatures: number): number {
  return 1 + 64 * signatures + messageBytes.length;
}

function run<T>(what: string, body: () => Outcome<T>): ResultAsync<T, DomainError> {
  let outcome: Outcome<T>;
  try {
    outcome = body();
  } catch (cause) {
    return errAsync(domainError('CHAIN_UNAVAILABLE', `localnet ${what} failed`, { cause }));
  }
  return outcome.isOk() ? okAsync(outcome.value) : errAsync(outcome.error);
}

interface BuiltIntent {
  readonly instructions: TransactionInstruction[];
  readonly localSigners: LocalSigner[];
  readonly mint?: Web3PublicKey;
  readonly nftOwner?: PublicKey;
}

/**
 * An in-process Solana "localnet" on LiteSVM: real programs (System, SPL Token, Token-2022, ATA)
 * executing real transactions, with slots advancing on a timer so statuses move
 * processed -> confirmed -> finalized, and a real blockhash validity window.
 */
export async function createLiteSvmChain(config: LiteSvmChainConfig = {}): Promise<LocalnetChain> {
  const slotIntervalMs = positiveInteger(
    config.slotIntervalMs,
    DEFAULTS.slotIntervalMs,
    'slotIntervalMs',
    true,
  );
  const confirmationDepth = BigInt(
    positiveInteger(
      config.confirmationDepthSlots,
      DEFAULTS.confirmationDepthSlots,
      'confirmationDepthSlots',
      true,
    ),
  );
  const finalityDepth = BigInt(
    positiveInteger(config.finalityDepthSlots, DEFAULTS.finalityDepthSlots, 'finalityDepthSlots', true),
  );
  if (finalityDepth < confirmationDepth)
    throw new Error('finalityDepthSlots must be at least confirmationDepthSlots');
  const validity = BigInt(
    positiveInteger(config.blockhashValiditySlots, DEFAULTS.blockhashValiditySlots, 'blockhashValiditySlots'),
  );
  const historySize = positiveInteger(config.historySize, DEFAULTS.historySize, 'historySize');
  const seed = config.seed ?? new Uint8Array(randomBytes(32));
  if (seed.length !== 32) throw new Error('seed must be 32 bytes');
  const projectTicker = (config.projectTicker ?? DEFAULTS.projectTicker).toUpperCase();
  const cluster: ClusterInfo = { name: 'localnet', rpcUrl: config.rpcUrl ?? DEFAULTS.rpcUrl };

  const svm = new LiteSVM()
    .withLamports(1n << 62n)
    .withTransactionHistory(BigInt(historySize))
    // Expiry is enforced below against a real validity window; LiteSVM alone accepts only the latest blockhash.
    .withBlockhashCheck(false);
  const decoder = getTransactionDecoder();

  let slot = svm.getClock().slot;
  const ledger = new Ledger(
    { confirmationDepthSlots: confirmationDepth, finalityDepthSlots: finalityDepth, historySize },
    slot,
  );
  /** Blockhashes this localnet issued, by the block height they were issued at (oldest first). */
  const issued = new Map<string, bigint>();
  /** Mint -> intended owner of NFTs prepared here: an owner can't be found from a mint cheaply. */
  const nftOwners = new Map<string, PublicKey>();
  let prepareCount = 0;
  let localTxCount = 0;

  const setWallClock = () => {
    const clock = svm.getClock();
    clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000));
    svm.setClock(clock);
  };
  setWallClock();
  issued.set(svm.latestBlockhash(), slot);

  const tick = (slots = 1) => {
    if (!Number.isSafeInteger(slots) || slots < 1) return;
    // Blockhashes issued more than a validity window ago are dead anyway: skip rotating through them.
    const rotate = BigInt(slots) > validity + 1n ? Number(validity + 1n) : slots;
    slot += BigInt(slots - rotate);
    for (let i = 0; i < rotate; i++) {
      slot += 1n;
      svm.warpToSlot(slot);
      svm.expireBlockhash();
      issued.set(svm.latestBlockhash(), slot);
    }
    setWallClock();
    for (const [hash, height] of issued) {
      if (height + validity >= slot) break;
      issued.delete(hash);
    }
    ledger.advanceTo(slot);
  };

  const rentExempt = (space: number) => svm.minimumBalanceForRentExemption(BigInt(space));
  const accountData = (
    address: Web3PublicKey,
  ): { data: Uint8Array; owner: string; lamports: bigint } | undefined => {
    const account = svm.getAccount(address.toBase58() as Address);
    if (!account.exists) return undefined;
    return { data: account.data, owner: account.programAddress, lamports: account.lamports };
  };
  const tokenBalance = (mint: Web3PublicKey, owner: Web3PublicKey, tokenProgram: Web3PublicKey): bigint => {
    const account = accountData(associatedTokenAddress(mint, owner, tokenProgram));
    if (!account || account.owner !== tokenProgram.toBase58()) return 0n;
    return tokenAccountAmount(account.data);
  };

  // Lands a transaction after the checks a validator's RPC would make; the one path for every send.
  const submit = (wire: Uint8Array): Outcome<Signature> => {
    let parsed: ReturnType<typeof parseTransaction>;
    try {
      parsed = parseTransaction(wire);
    } catch (cause) {
      return err(domainError('INVALID_INPUT', `malformed transaction: ${(cause as Error).message}`));
    }
    if (parsed.signatures.some(isZero))
      return err(domainError('INVALID_INPUT', 'transaction is missing a signature'));
    const id = encodeBase58(parsed.signatures[0]!) as Signature;
    if (ledger.has(id)) return ok(id);

    const blockhash = encodeBase58(parsed.message.recentBlockhash);
    const issuedAt = issued.get(blockhash);
    if (issuedAt === undefined || slot > issuedAt + validity) {
      return err(domainError('INVALID_INPUT', 'blockhash not found or expired', { context: { blockhash } }));
    }
    let decoded: ReturnType<typeof decoder.decode>;
    try {
      decoded = decoder.decode(wire);
    } catch (cause) {
      return err(domainError('INVALID_INPUT', 'malformed transaction', { cause }));
    }
    const result = svm.sendTransaction(decoded);
    const lastValidBlockHeight = issuedAt + validity;
    if (result instanceof TransactionMetadata) {
      record(id, parsed.message, lastValidBlockHeight);
      return ok(id);
    }
    if (result instanceof FailedTransactionMetadata) {
      const failure = describeFailure(result, parsed.message);
      if (failure.kind === 'already_processed') {
        // LiteSVM's own history knew it though the ledger did not: keep what it says.
        const known = svm.getTransaction(id as string as KitSignature);
        const error =
          known instanceof FailedTransactionMetadata
            ? describeFailure(known, parsed.message).message
            : undefined;
        record(id, parsed.message, lastValidBlockHeight, error);
        return ok(id);
      }
      if (!isZero(result.meta().signature())) {
        record(id, parsed.message, lastValidBlockHeight, failure.message);
        return ok(id);
      }
      return err(
        domainError(
          failure.kind === 'insufficient_funds' ? 'INSUFFICIENT_FUNDS' : 'INVALID_INPUT',
          failure.message,
          {
            context: { error: failure.name },
          },
        ),
      );
    }
    throw new Error('LiteSVM returned neither TransactionMetadata nor FailedTransactionMetadata');
  };

  const record = (id: string, message: ParsedMessage, lastValidBlockHeight: bigint, error?: string) => {
    const entry =
      error === undefined ? { slot, lastValidBlockHeight } : { slot, lastValidBlockHeight, error };
    const fee =
      error === undefined
        ? {
            price: computeUnitPriceOf(message),
            writable: writableKeys(message).map((key) => encodeBase58(key)),
          }
        : undefined;
    ledger.record(id, entry, slot, fee);
  };

  /** Builds, signs with the localnet's own keys and lands a transaction. */
  const submitLocal = (
    instructions: TransactionInstruction[],
    signers: readonly LocalSigner[],
  ): Outcome<Signature> => {
    const payer = signers[0]!;
    // Identical airdrops within one blockhash would share a signature and land once; the
    // compute-unit limit (free at price 0) tells them apart.
    const nonce = 200_000 + (localTxCount++ % 1_000_000);
    const { accountKeys, numRequiredSignatures, bytes } = compileLegacyMessage(
      new Web3PublicKey(payer.publicKey),
      [...computeBudgetInstructions(nonce, 0n), ...instructions],
      svm.latestBlockhash(),
    );
    const bySigner = new Map(signers.map((s) => [encodeBase58(s.publicKey), s]));
    const signatures = accountKeys.slice(0, numRequiredSignatures).map((key) => {
      const signer = bySigner.get(key);
      if (!signer) throw new Error(`no local key for signer ${key}`);
      return signer.sign(bytes);
    });
    return submit(assembleTransaction(bytes, signatures)).andThen((id) => {
      const status = ledger.status(id, slot);
      return status?.error === undefined
        ? ok(id)
        : err(
            domainError('SIMULATION_FAILED', `localnet transaction failed: ${status.error}`, {
              context: { id },
            }),
          );
    });
  };

  // The localnet's own keys and mints.
  const authority = signerFromSeed(deriveSeed(seed, 'mint-authority'));
  const authorityKey = new Web3PublicKey(authority.publicKey);
  const stableMintSigner = signerFromSeed(deriveSeed(seed, 'stable-mint'));
  const projectMintSigner = signerFromSeed(deriveSeed(seed, 'project-mint'));
  const funded = svm.airdrop(
    authorityKey.toBase58() as Address,
    FAUCET_LAMPORTS as Parameters<typeof svm.airdrop>[1],
  );
  if (!(funded instanceof TransactionMetadata)) throw new Error('localnet: funding the faucet failed');

  const createMint = (mintSigner: LocalSigner, decimals: number) => {
    const mint = new Web3PublicKey(mintSigner.publicKey);
    const instructions = createFungibleMint({
      payer: authorityKey,
      mint,
      tokenProgram: TOKEN_PROGRAM_ID,
      decimals,
      authority: authorityKey,
      rentExemptLamports: rentExempt,
    });
    const landed = submitLocal(instructions, [authority, mintSigner]);
    if (landed.isErr()) throw new Error(`localnet: creating a mint failed: ${landed.error.message}`);
    return mint;
  };
  const stableMint = createMint(stableMintSigner, 6);
  const projectMint = createMint(projectMintSigner, 9);
  const tokenProgramKey = TOKEN_PROGRAM_ID.toBase58() as PublicKey;
  const currencies = new Currencies(
    { code: 'SOL', kind: 'native', decimals: 9 },
    {
      code: 'USDC',
      kind: 'stable',
      decimals: 6,
      mint: stableMint.toBase58() as PublicKey,
      tokenProgram: tokenProgramKey,
    },
    {
      code: projectTicker,
      kind: 'project',
      decimals: 9,
      mint: projectMint.toBase58() as PublicKey,
      tokenProgram: tokenProgramKey,
    },
  );
  const ownMints = new Map<string, Currency>([
    [stableMint.toBase58(), currencies.stable],
    [projectMint.toBase58(), currencies.project],
  ]);

  const buildTransfer = (intent: TransferIntent, feePayer: Web3PublicKey): Outcome<BuiltIntent> =>
    checkAmount(intent.amount).andThen((amount) =>
      toKey(intent.from, 'from').andThen((from) =>
        toKey(intent.to, 'to').andThen((to): Outcome<BuiltIntent> => {
          const currency = intent.currency;
          if (currency.mint === undefined) {
            return ok({ instructions: solTransfer(from, to, amount), localSigners: [] });
          }
          if (
            !isPublicKey(currency.mint) ||
            (currency.tokenProgram !== undefined && !isPublicKey(currency.tokenProgram))
          ) {
            return err(domainError('UNKNOWN_CURRENCY', `${currency.code} has no valid mint`));
          }
          const mint = new Web3PublicKey(currency.mint);
          const tokenProgram = currency.tokenProgram
            ? new Web3PublicKey(currency.tokenProgram)
            : TOKEN_PROGRAM_ID;
          const held = tokenBalance(mint, from, tokenProgram);
          if (held < amount) {
            return err(
              domainError(
                'INSUFFICIENT_FUNDS',
                `${intent.from} holds ${formatAmount(held, currency.decimals)} ${currency.code}, ` +
                  `${formatAmount(amount, currency.decimals)} needed`,
              ),
            );
          }
          return ok({
            instructions: tokenTransfer({
              payer: feePayer,
              mint,
              tokenProgram,
              decimals: currency.decimals,
              from,
              to,
              amount,
            }),
            localSigners: [],
          });
        }),
      ),
    );

  const buildMint = (intent: MintNftIntent, feePayer: Web3PublicKey): Outcome<BuiltIntent> => {
    for (const field of ['name', 'symbol', 'uri'] as const) {
      if (typeof intent[field] !== 'string')
        return err(domainError('INVALID_INPUT', `${field} must be a string`));
    }
    return toKey(intent.authority, 'authority').andThen((authorityKey) =>
      toKey(intent.owner, 'owner').map((owner) => {
        const mintSigner = randomSigner();
        const mint = new Web3PublicKey(mintSigner.publicKey);
        return {
          instructions: nftMint({
            payer: feePayer,
            mint,
            authority: authorityKey,
            owner,
            name: intent.name,
            symbol: intent.symbol,
            uri: intent.uri,
            rentExemptLamports: rentExempt,
          }),
          localSigners: [mintSigner],
          mint,
          nftOwner: intent.owner,
        };
      }),
    );
  };

  const simulate = (messageBytes: Uint8Array, signatures: number) => {
    const unsigned = assembleTransaction(
      messageBytes,
      Array.from({ length: signatures }, () => new Uint8Array(64)),
    );
    svm.withSigverify(false);
    try {
      return svm.simulateTransaction(decoder.decode(unsigned));
    } finally {
      svm.withSigverify(true);
    }
  };

  const prepare = (intent: ChainIntent, options: PrepareOptions): Outcome<PreparedTransaction> => {
    const price = options.computeUnitPrice;
    if (typeof price !== 'bigint' || price < 0n || price > U64_MAX) {
      return err(domainError('INVALID_INPUT', 'computeUnitPrice must be a non-negative u64'));
    }
    const payerKey = toKey(options.feePayer, 'feePayer');
    if (payerKey.isErr()) return err(payerKey.error);
    const feePayer = payerKey.value;
    const built =
      intent.kind === 'transfer'
        ? buildTransfer(intent, feePayer)
        : intent.kind === 'mint_nft'
          ? buildMint(intent, feePayer)
          : err(domainError('INVALID_INPUT', 'unknown intent kind'));
    if (built.isErr()) return err(built.error);
    const { instructions, localSigners, mint, nftOwner } = built.value;
    const feePayerSpend =
      intent.kind === 'transfer' && intent.currency.mint === undefined && intent.from === options.feePayer
        ? intent.amount
        : 0n;

    const blockhash = svm.latestBlockhash();
    const issuedAt = issued.get(blockhash) ?? slot;

    const tooLarge = domainError(
      'INVALID_INPUT',
      'the transaction would exceed 1232 bytes (name, symbol or uri too long?)',
    );
    let trial: ReturnType<typeof compileLegacyMessage>;
    try {
      trial = compileLegacyMessage(
        feePayer,
        [...computeBudgetInstructions(MAX_COMPUTE_UNIT_LIMIT, 0n), ...instructions],
        blockhash,
      );
    } catch (cause) {
      if (cause instanceof RangeError) return err(tooLarge);
      throw cause;
    }
    const signatureCount = trial.numRequiredSignatures;
    if (wireSize(trial.bytes, signatureCount) > MAX_TRANSACTION_BYTES) return err(tooLarge);
    const simulated = simulate(trial.bytes, signatureCount);
    if (simulated instanceof FailedTransactionMetadata) {
      const failure = describeFailure(simulated, parseMessage(trial.bytes));
      return err(
        domainError(
          failure.kind === 'insufficient_funds' ? 'INSUFFICIENT_FUNDS' : 'SIMULATION_FAILED',
          failure.message,
          {
            context: { error: failure.name },
          },
        ),
      );
    }
    const consumed = simulated.meta().computeUnitsConsumed();
    // Two identical intents prepared within one blockhash would compile to the same message and
    // land once; a per-prepare nudge of the limit keeps every prepared transaction distinct.
    const nudge = BigInt(prepareCount++ % 10_000);
    const limitWithMargin = (consumed * 11n + 9n) / 10n + 1_000n + nudge;
    const computeUnitLimit = Number(
      limitWithMargin > BigInt(MAX_COMPUTE_UNIT_LIMIT) ? BigInt(MAX_COMPUTE_UNIT_LIMIT) : limitWithMargin,
    );
    const priorityFee = priorityFeeLamports(price, computeUnitLimit);

    if (priorityFee > 0n) {
      // The simulation paid no priority fee; the fee payer must afford it on top and stay rent-exempt.
      // Reading the simulated accounts back is slow, so a payer far richer than the transaction
      // could cost is let through at once.
      const before = svm.getBalance(feePayer.toBase58() as Address) ?? 0n;
      const worstCase =
        LAMPORTS_PER_SIGNATURE * BigInt(signatureCount) +
        priorityFee +
        feePayerSpend +
        2n * rentExempt(4_096);
      if (before < worstCase + rentExempt(0)) {
        const after = simulated.postAccounts().find((account) => account.address === feePayer.toBase58());
        const remaining = (after?.lamports ?? 0n) - priorityFee;
        if (remaining < 0n || (remaining > 0n && remaining < rentExempt(0))) {
          return err(domainError('INSUFFICIENT_FUNDS', 'the fee payer cannot pay the priority fee'));
        }
      }
    }

    const final = compileLegacyMessage(
      feePayer,
      [...computeBudgetInstructions(computeUnitLimit, price), ...instructions],
      blockhash,
    );
    const signers = final.accountKeys.slice(0, signatureCount) as PublicKey[];
    const presigned: Record<string, Uint8Array> = {};
    for (const signer of localSigners) presigned[encodeBase58(signer.publicKey)] = signer.sign(final.bytes);
    const writableAccounts = final.accountKeys.filter((_, index) => final.writable[index]) as PublicKey[];
    if (mint && nftOwner) nftOwners.set(mint.toBase58(), nftOwner);

    const prepared: PreparedTransaction = {
      message: final.bytes,
      signers,
      presigned,
      blockhash,
      lastValidBlockHeight: issuedAt + validity,
      computeUnitLimit,
      computeUnitPrice: price,
      feeLamports: LAMPORTS_PER_SIGNATURE * BigInt(signatureCount) + priorityFee,
      writableAccounts,
      ...(mint ? { mint: mint.toBase58() as PublicKey } : {}),
    };
    return ok(prepared);
  };

  const getBalance = (owner: PublicKey, currency: Currency): Outcome<bigint> =>
    toKey(owner, 'owner').andThen((ownerKey) => {
      if (currency.mint === undefined) {
        return ok(svm.getBalance(ownerKey.toBase58() as Address) ?? 0n);
      }
      if (!isPublicKey(currency.mint))
        return err(domainError('UNKNOWN_CURRENCY', `${currency.code} has no valid mint`));
      const tokenProgram = currency.tokenProgram
        ? new Web3PublicKey(currency.tokenProgram)
        : TOKEN_PROGRAM_ID;
      return ok(tokenBalance(new Web3PublicKey(currency.mint), ownerKey, tokenProgram));
    });

  const getNft = (mintAddress: PublicKey): Outcome<NftMetadata | null> =>
    toKey(mintAddress, 'mint').map((mintKey) => {
      const account = accountData(mintKey);
      if (!account || account.owner !== TOKEN_2022_PROGRAM_ID.toBase58()) return null;
      let parsed: ReturnType<typeof unpackMint>;
      try {
        parsed = unpackMint(
          mintKey,
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
      const intendedOwner = nftOwners.get(mintAddress);
      const holds =
        intendedOwner !== undefined &&
        tokenBalance(mintKey, new Web3PublicKey(intendedOwner), TOKEN_2022_PROGRAM_ID) > 0n;
      const nft: NftMetadata = {
        mint: mintAddress,
        name: metadata.name,
        symbol: metadata.symbol,
        uri: metadata.uri,
        supply: parsed.supply,
        decimals: parsed.decimals,
        ...(metadata.updateAuthority
          ? { updateAuthority: metadata.updateAuthority.toBase58() as PublicKey }
          : {}),
        ...(parsed.mintAuthority ? { mintAuthority: parsed.mintAuthority.toBase58() as PublicKey } : {}),
        ...(holds ? { owner: intendedOwner } : {}),
      };
      return nft;
    });

  const airdrop = (to: PublicKey, currency: Currency, amount: bigint): Outcome<Signature> =>
    checkAmount(amount).andThen((units) =>
      toKey(to, 'to').andThen((recipient): Outcome<Signature> => {
        if (currency.mint === undefined) {
          if (units > (svm.getBalance(authorityKey.toBase58() as Address) ?? 0n) / 2n) {
            return err(
              domainError('INVALID_AMOUNT', 'airdrop amount exceeds what the localnet faucet can give'),
            );
          }
          return submitLocal(solTransfer(authorityKey, recipient, units), [authority]);
        }
        const own = ownMints.get(currency.mint);
        if (!own) return err(domainError('NOT_SUPPORTED', `the localnet cannot mint ${currency.code}`));
        return submitLocal(
          tokenMintTo({
            payer: authorityKey,
            mint: new Web3PublicKey(currency.mint),
            tokenProgram: TOKEN_PROGRAM_ID,
            decimals: own.decimals,
            authority: authorityKey,
            to: recipient,
            amount: units,
          }),
          [authority],
        ).mapErr((error) =>
          /overflow/i.test(error.message)
            ? domainError('INVALID_AMOUNT', 'airdrop would overflow the token supply')
            : error,
        );
      }),
    );

  const timer = slotIntervalMs > 0 ? setInterval(() => tick(1), slotIntervalMs) : undefined;
  timer?.unref();

  const chain: LocalnetChain = {
    cluster,
    currencies,
    mintAuthority: authorityKey.toBase58() as PublicKey,
    slot: () => slot,
    tick,
    close: () => {
      if (timer) clearInterval(timer);
    },
    fund: (owner, lamports) => {
      const landed = airdrop(owner, currencies.native, lamports);
      if (landed.isErr()) throw new Error(`localnet fund failed: ${landed.error.message}`);
      return landed.value;
    },
    prepare: (intent, options) => run('prepare', () => prepare(intent, options)),
    send: (wire) =>
      run('send', () =>
        wire instanceof Uint8Array
          ? submit(wire)
          : err(domainError('INVALID_INPUT', 'transaction must be bytes')),
      ),
    getStatuses: (ids) =>
      run('getStatuses', (): Outcome<readonly (ChainStatus | null)[]> => {
        if (ids.length > STATUS_BATCH_LIMIT) {
          return err(domainError('INVALID_INPUT', `at most ${STATUS_BATCH_LIMIT} statuses per request`));
        }
        return ok(ids.map((id) => ledger.status(id, slot)));
      }),
    getBlockHeight: () => okAsync(slot),
    getBalance: (owner, currency) => run('getBalance', () => getBalance(owner, currency)),
    getRecentPrioritizationFees: (accounts) =>
      run('getRecentPrioritizationFees', (): Outcome<readonly PrioritizationFee[]> => {
        if (accounts.length > 128) return err(domainError('INVALID_INPUT', 'at most 128 accounts'));
        return ok(ledger.prioritizationFees(accounts, slot));
      }),
    getNft: (mint) => run('getNft', () => getNft(mint)),
    airdrop: (to, currency, amount) => run('airdrop', () => airdrop(to, currency, amount)),
  };
  return chain;
}
