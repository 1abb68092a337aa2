import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import {
  type AccountInfo,
  type Commitment,
  Connection,
  SendTransactionError,
  SolanaJSONRPCError,
  type TransactionError,
  VersionedMessage,
  VersionedTransaction,
  PublicKey as Web3PublicKey,
} from '@solana/web3.js';
import {
  type ChainCommitment,
  type ChainPort,
  type ChainStatus,
  type ClusterInfo,
  Currencies,
  type Currency,
  type DomainError,
  domainError,
  encodeBase58,
  isPublicKey,
  isSignature,
  type NftMetadata,
  type PreparedTransaction,
  type PublicKey,
  type Signature,
} from '@token-actions/core';
import { err, ok, ResultAsync } from 'neverthrow';
import { describeTransactionError, simulationFailure, type TransactionErrorJson } from '../shared/failure.js';
import { associatedTokenAddress } from '../shared/instructions.js';
import {
  buildIntent,
  checkAmount,
  checkPrice,
  compileTrial,
  computeUnitLimitFor,
  finalizePrepared,
  insufficientTokens,
  type Outcome,
  PRIORITIZATION_FEE_ACCOUNT_LIMIT,
  priorityFeeLamports,
  STATUS_BATCH_LIMIT,
  standardRentExemption,
  toKey,
  tokenAccountAmount,
  tokenAccountOwner,
} from '../shared/intents.js';
import { isZero, type ParsedMessage, parseMessage, parseTransaction } from '../shared/message.js';
import { decodeNftMint } from '../shared/nft.js';
import { callJsonRpc, JsonRpcError, quoteValue } from './json-rpc.js';

export interface RpcChainConfig {
  /** The JSON-RPC endpoint the adapter talks to. */
  readonly rpcUrl: string;
  readonly cluster: ClusterInfo['name'];
  /** SOL, the stablecoin and the project token, with their mints (see `discoverRpcCurrencies`). */
  readonly currencies: Currencies;
  /** Commitment of reads (balances, block height, NFTs); default `confirmed`. Blockhashes are
   * always fetched at `confirmed`, simulations run at `processed`. */
  readonly commitment?: ChainCommitment;
  /** The URL reported in `cluster.rpcUrl` (explorer links, wallets); default `rpcUrl`. */
  readonly publicRpcUrl?: string;
  /** How long a fetched blockhash is reused for new transactions; default 1,000 ms. */
  readonly blockhashCacheMs?: number;
  /** Mint test tokens through the localnet's `localnet_mintTo` method; default: cluster is localnet. */
  readonly localnetFaucet?: boolean;
  /** How long `airdrop` waits for its transaction to be seen; default 30 s. */
  readonly airdropTimeoutMs?: number;
  /** HTTP client; default: web3.js's own for `Connection`, `globalThis.fetch` for bare calls. */
  readonly fetch?: typeof fetch;
}

const SENT_MESSAGES = 10_000;
const TOKEN_PROGRAMS = new Set([TOKEN_PROGRAM_ID.toBase58(), TOKEN_2022_PROGRAM_ID.toBase58()]);

function unavailable(what: string, cause: unknown): DomainError {
  const detail = cause instanceof Error ? cause.message.split('\n')[0]!.slice(0, 200) : undefined;
  return domainError('CHAIN_UNAVAILABLE', `${what} failed${detail ? `: ${detail}` : ''}`, { cause });
}

/** Runs an async body; a throw (network, HTTP, unexpected RPC answer) becomes CHAIN_UNAVAILABLE. */
function attempt<T>(what: string, body: () => Promise<Outcome<T>>): ResultAsync<T, DomainError> {
  return ResultAsync.fromPromise(body(), (cause) => unavailable(what, cause)).andThen((outcome) => outcome);
}

/** Maps the words of a `sendTransaction` rejection (web3.js keeps only the message and logs). */
function sendFailure(error: SendTransactionError, message?: ParsedMessage): DomainError {
  const text = error.transactionError.message;
  const logs = error.transactionError.logs ?? [];
  if (/blockhash not found/i.test(text)) {
    return domainError('INVALID_INPUT', 'blockhash not found or expired', { context: { rpc: text } });
  }
  if (/signature verification/i.test(text)) {
    return domainError('INVALID_INPUT', 'transaction signature verification failed', {
      context: { rpc: text },
    });
  }
  if (/insufficient funds for fee|no record of a prior credit/i.test(text)) {
    return domainError('INSUFFICIENT_FUNDS', 'the fee payer cannot pay the transaction fee', {
      context: { rpc: text },
    });
  }
  const instruction = /Error processing Instruction (\d+): custom program error: 0x([0-9a-f]+)/i.exec(text);
  if (instruction) {
    const failure = describeTransactionError(
      { InstructionError: [Number(instruction[1]), { Custom: Number.parseInt(instruction[2]!, 16) }] },
      logs,
      message,
    );
    return domainError(
      failure.kind === 'insufficient_funds' ? 'INSUFFICIENT_FUNDS' : 'INVALID_INPUT',
      failure.message,
      {
        context: { rpc: text },
      },
    );
  }
  return domainError('INVALID_INPUT', `transaction rejected: ${text.slice(0, 200)}`, {
    context: { rpc: text },
  });
}

/**
 * A ChainPort over `@solana/web3.js` v1 `Connection`, for any cluster: the localnet's JSON-RPC,
 * devnet, testnet or mainnet. Transactions are built exactly as the localnet adapter builds them.
 *
 * - prepare: blockhash from `getLatestBlockhash('confirmed')` (cached `blockhashCacheMs`), the
 *   sender's token account read first (a clear INSUFFICIENT_FUNDS), then `simulateTransaction`
 *   (sigVerify off, at `processed`) for the compute-unit limit and the fee payer's balance after it.
 * - send: `sendRawTransaction(wire, { skipPreflight: true, maxRetries: 0 })`; the caller rebroadcasts.
 * - statuses: `getSignatureStatuses` with `searchTransactionHistory`; a failure is explained from the
 *   transaction's logs once it is confirmed, before that from the message this adapter sent.
 * - airdrop: SOL through `requestAirdrop` (not on mainnet); tokens only on a token-actions localnet,
 *   through its `localnet_mintTo` method, so the mint authority never leaves the localnet's
 *   process. Anything else is NOT_SUPPORTED.
 * - lamport balances are read with a bare `getBalance` call that keeps u64 values exact (web3.js
 *   would pass them through a double).
 */
export function createRpcChain(config: RpcChainConfig): ChainPort {
  const fetchFn = config.fetch ?? globalThis.fetch;
  const commitment: Commitment = config.commitment ?? 'confirmed';
  const connection = new Connection(config.rpcUrl, {
    commitment,
    ...(config.fetch ? { fetch: config.fetch } : {}),
  });
  const cluster: ClusterInfo = { name: config.cluster, rpcUrl: config.publicRpcUrl ?? config.rpcUrl };
  const cacheMs = config.blockhashCacheMs ?? 1_000;
  const localnetFaucet = config.localnetFaucet ?? config.cluster === 'localnet';
  const airdropTimeoutMs = config.airdropTimeoutMs ?? 30_000;
  const { currencies } = config;
  const ownMints = new Set(
    currencies.all.map((currency) => currency.mint).filter((mint) => mint !== undefined),
  );

  let prepareCount = 0;
  let cached: { blockhash: string; lastValidBlockHeight: bigint; at: number } | undefined;
  let inflight: Promise<{ blockhash: string; lastValidBlockHeight: bigint; at: number }> | undefined;
  /** Messages this adapter sent, to name the failing program when a status arrives without logs. */
  const sentMessages = new Map<string, ParsedMessage>();
  /** Failure descriptions read from a confirmed transaction: they never change. */
  const failures = new Map<string, string>();

  const latestBlockhash = (fresh = false) => {
    if (!fresh && cached && Date.now() - cached.at < cacheMs) return Promise.resolve(cached);
    if (inflight) return inflight;
    inflight = connection
      .getLatestBlockhash('confirmed')
      .then((value) => {
        cached = {
          blockhash: value.blockhash,
          lastValidBlockHeight: BigInt(value.lastValidBlockHeight),
          at: Date.now(),
        };
        return cached;
      })
      .finally(() => {
        inflight = undefined;
      });
    return inflight;
  };

  const simulateMessage = async (messageBytes: Uint8Array, feePayer: Web3PublicKey) => {
    const transaction = new VersionedTransaction(VersionedMessage.deserialize(messageBytes));
    const response = await connection.simulateTransaction(transaction, {
      sigVerify: false,
      replaceRecentBlockhash: false,
      commitment: 'processed',
      accounts: { encoding: 'base64', addresses: [feePayer.toBase58()] },
    });
    return response.value;
  };

  const prepare = async (
    intent: Parameters<ChainPort['prepare']>[0],
    options: Parameters<ChainPort['prepare']>[1],
  ): Promise<Outcome<PreparedTransaction>> => {
    const price = checkPrice(options?.computeUnitPrice);
    if (price.isErr()) return err(price.error);
    const payerKey = toKey(options.feePayer, 'feePayer');
    if (payerKey.isErr()) return err(payerKey.error);
    const feePayer = payerKey.value;
    const builtResult = buildIntent(intent, feePayer, standardRentExemption);
    if (builtResult.isErr()) return err(builtResult.error);
    const built = builtResult.value;
    const source = built.tokenSource;

    const [latest, sourceAccount] = await Promise.all([
      latestBlockhash(),
      source ? connection.getAccountInfo(source.account, 'processed') : Promise.resolve(null),
    ]);
    if (source) {
      const tokenProgram = source.currency.tokenProgram ?? TOKEN_PROGRAM_ID.toBase58();
      const held =
        sourceAccount && sourceAccount.owner.toBase58() === tokenProgram
          ? tokenAccountAmount(sourceAccount.data)
          : 0n;
      if (held < source.amount)
        return err(insufficientTokens(source, (intent as { from: string }).from, held));
    }

    let blockhash = latest;
    let trial = compileTrial(feePayer, built, blockhash.blockhash);
    if (trial.isErr()) return err(trial.error);
    let simulated = await simulateMessage(trial.value.bytes, feePayer);
    if (simulated.err === 'BlockhashNotFound') {
      // The cached blockhash expired (or the node is behind it): one retry with a fresh one.
      blockhash = await latestBlockhash(true);
      trial = compileTrial(feePayer, built, blockhash.blockhash);
      if (trial.isErr()) return err(trial.error);
      simulated = await simulateMessage(trial.value.bytes, feePayer);
    }
    if (simulated.err) {
      return err(
        simulationFailure(
          simulated.err as TransactionErrorJson,
          simulated.logs ?? [],
          parseMessage(trial.value.bytes),
        ),
      );
    }
    const consumed = BigInt(simulated.unitsConsumed ?? 200_000);
    const computeUnitLimit = computeUnitLimitFor(consumed, prepareCount++);
    const priorityFee = priorityFeeLamports(price.value, computeUnitLimit);
    if (priorityFee > 0n) {
      // The simulation paid no priority fee: the payer must afford it on top and stay rent-exempt.
      const after = simulated.accounts?.[0];
      const remaining = BigInt(after?.lamports ?? 0) - priorityFee;
      if (remaining < 0n || (remaining > 0n && remaining < standardRentExemption(0))) {
        return err(domainError('INSUFFICIENT_FUNDS', 'the fee payer cannot pay the priority fee'));
      }
    }
    return ok(
      finalizePrepared({
        feePayer,
        built,
        blockhash: blockhash.blockhash,
        lastValidBlockHeight: blockhash.lastValidBlockHeight,
        computeUnitLimit,
        computeUnitPrice: price.value,
      }),
    );
  };

  const send = async (wire: Uint8Array): Promise<Outcome<Signature>> => {
    let message: ParsedMessage;
    let id: Signature;
    try {
      if (!(wire instanceof Uint8Array)) throw new Error('transaction must be bytes');
      const parsed = parseTransaction(wire);
      if (parsed.signatures.some(isZero))
        return err(domainError('INVALID_INPUT', 'transaction is missing a signature'));
      message = parsed.message;
      id = encodeBase58(parsed.signatures[0]!) as Signature;
    } catch (cause) {
      return err(domainError('INVALID_INPUT', `malformed transaction: ${(cause as Error).message}`));
    }
    try {
      await connection.sendRawTransaction(wire, { skipPreflight: true, maxRetries: 0 });
    } catch (cause) {
      if (cause instanceof SendTransactionError) {
        if (/already been processed/i.test(cause.transactionError.message)) return ok(id);
        return err(sendFailure(cause, message));
      }
      throw cause;
    }
    sentMessages.set(id, message);
    if (sentMessages.size > SENT_MESSAGES) sentMessages.delete(sentMessages.keys().next().value!);
    return ok(id);
  };

  /** Why a landed transaction failed, in the localnet adapter's words: from its logs once it is
   * confirmed, else from the message this adapter sent and the error code. */
  const describeLanded = async (
    id: string,
    error: TransactionError,
    level: ChainCommitment,
  ): Promise<string> => {
    const known = failures.get(id);
    if (known) return known;
    if (level !== 'processed') {
      const found = await connection.getTransaction(id, {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
      });
      if (found) {
        const described = describeTransactionError(
          error as TransactionErrorJson,
          found.meta?.logMessages ?? [],
          parseMessage(found.transaction.message.serialize()),
        ).message;
        failures.set(id, described);
        if (failures.size > SENT_MESSAGES) failures.delete(failures.keys().next().value!);
        return described;
      }
    }
    return describeTransactionError(error as TransactionErrorJson, [], sentMessages.get(id)).message;
  };

  const getStatuses = async (
    ids: readonly Signature[],
  ): Promise<Outcome<readonly (ChainStatus | null)[]>> => {
    if (!Array.isArray(ids)) return err(domainError('INVALID_INPUT', 'ids must be an array'));
    if (ids.length > STATUS_BATCH_LIMIT) {
      return err(domainError('INVALID_INPUT', `at most ${STATUS_BATCH_LIMIT} statuses per request`));
    }
    const valid = ids.filter((id) => isSignature(id));
    const statuses =
      valid.length === 0
        ? []
        : (await connection.getSignatureStatuses([...valid], { searchTransactionHistory: true })).value;
    const byId = new Map(valid.map((id, index) => [id as string, statuses[index] ?? null]));
    return ok(
      await Promise.all(
        ids.map(async (id): Promise<ChainStatus | null> => {
          const status = byId.get(id);
          if (!status) return null;
          const level: ChainCommitment =
            status.confirmationStatus ?? (status.confirmations === null ? 'finalized' : 'confirmed');
          const slot = BigInt(status.slot);
          if (!status.err) return { commitment: level, slot };
          return { commitment: level, slot, error: await describeLanded(id, status.err, level) };
        }),
      ),
    );
  };

  const getBalance = async (owner: PublicKey, currency: Currency): Promise<Outcome<bigint>> => {
    const ownerKey = toKey(owner, 'owner');
    if (ownerKey.isErr()) return err(ownerKey.error);
    if (currency.mint === undefined) {
      const result = (await callJsonRpc(
        fetchFn,
        config.rpcUrl,
        'getBalance',
        [owner, { commitment }],
        quoteValue,
      )) as {
        value: string | number;
      };
      return ok(BigInt(result.value));
    }
    if (!isPublicKey(currency.mint))
      return err(domainError('UNKNOWN_CURRENCY', `${currency.code} has no valid mint`));
    const tokenProgram = currency.tokenProgram ? new Web3PublicKey(currency.tokenProgram) : TOKEN_PROGRAM_ID;
    const account = await connection.getAccountInfo(
      associatedTokenAddress(new Web3PublicKey(currency.mint), ownerKey.value, tokenProgram),
      commitment,
    );
    if (!account?.owner.equals(tokenProgram)) return ok(0n);
    return ok(tokenAccountAmount(account.data));
  };

  const nftOwner = async (mint: Web3PublicKey): Promise<PublicKey | undefined> => {
    let holders: { address: Web3PublicKey; amount: string }[];
    try {
      holders = (await connection.getTokenLargestAccounts(mint, commitment)).value;
    } catch {
      // Some providers restrict this method; the NFT is still reported, without its owner.
      return undefined;
    }
    const holder = holders.find((entry) => entry.amount !== '0');
    if (!holder) return undefined;
    const account = await connection.getAccountInfo(holder.address, commitment);
    const owner = account ? tokenAccountOwner(account.data) : undefined;
    return owner as PublicKey | undefined;
  };

  const getNft = async (mintAddress: PublicKey): Promise<Outcome<NftMetadata | null>> => {
    const mintKey = toKey(mintAddress, 'mint');
    if (mintKey.isErr()) return err(mintKey.error);
    const account: AccountInfo<Buffer> | null = await connection.getAccountInfo(mintKey.value, commitment);
    if (!account?.owner.equals(TOKEN_2022_PROGRAM_ID)) return ok(null);
    const decoded = decodeNftMint(mintKey.value, account);
    if (!decoded) return ok(null);
    const owner = await nftOwner(mintKey.value);
    return ok({ ...decoded, ...(owner ? { owner } : {}) });
  };

  /** Waits until the cluster reports the transaction (the localnet does at once). */
  const seen = async (id: string): Promise<boolean> => {
    const deadline = Date.now() + airdropTimeoutMs;
    for (;;) {
      const [status] = (await connection.getSignatureStatuses([id])).value;
      if (status) return true;
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  const airdrop = async (to: PublicKey, currency: Currency, amount: bigint): Promise<Outcome<Signature>> => {
    const units = checkAmount(amount);
    if (units.isErr()) return err(units.error);
    const recipient = toKey(to, 'to');
    if (recipient.isErr()) return err(recipient.error);
    let id: string;
    if (currency.mint === undefined) {
      if (config.cluster === 'mainnet-beta')
        return err(domainError('NOT_SUPPORTED', 'mainnet has no faucet'));
      if (units.value > BigInt(Number.MAX_SAFE_INTEGER)) {
        return err(domainError('INVALID_AMOUNT', 'airdrop amount exceeds what the faucet can give'));
      }
      try {
        id = await connection.requestAirdrop(recipient.value, Number(units.value));
      } catch (cause) {
        if (cause instanceof SolanaJSONRPCError && cause.code === -32602) {
          return err(domainError('INVALID_AMOUNT', cause.message.replace(/^airdrop to \S+ failed: /, '')));
        }
        throw cause;
      }
    } else {
      if (!localnetFaucet || !ownMints.has(currency.mint)) {
        return err(domainError('NOT_SUPPORTED', `${config.cluster} cannot mint ${currency.code} here`));
      }
      try {
        id = String(
          await callJsonRpc(fetchFn, config.rpcUrl, 'localnet_mintTo', [
            to,
            currency.mint,
            units.value.toString(),
          ]),
        );
      } catch (cause) {
        if (cause instanceof JsonRpcError && cause.code === -32601) {
          return err(
            domainError(
              'NOT_SUPPORTED',
              `${config.rpcUrl} is not a token-actions localnet: it cannot mint tokens`,
            ),
          );
        }
        if (cause instanceof JsonRpcError && cause.code === -32602)
          return err(domainError('INVALID_AMOUNT', cause.message));
        throw cause;
      }
    }
    if (!(await seen(id)))
      return err(
        domainError('CHAIN_UNAVAILABLE', `airdrop ${id} was not seen within ${airdropTimeoutMs} ms`),
      );
    return ok(id as Signature);
  };

  return {
    cluster,
    prepare: (intent, options) => attempt('prepare', () => prepare(intent, options)),
    send: (wire) => attempt('send', () => send(wire)),
    getStatuses: (ids) => attempt('getStatuses', () => getStatuses(ids)),
    getBlockHeight: () =>
      attempt('getBlockHeight', async () => ok(BigInt(await connection.getBlockHeight(commitment)))),
    getBalance: (owner, currency) => attempt('getBalance', () => getBalance(owner, currency)),
    getRecentPrioritizationFees: (accounts) =>
      attempt('getRecentPrioritizationFees', async () => {
        if (!Array.isArray(accounts) || accounts.length > PRIORITIZATION_FEE_ACCOUNT_LIMIT) {
          return err(domainError('INVALID_INPUT', `at most ${PRIORITIZATION_FEE_ACCOUNT_LIMIT} accounts`));
        }
        const keys: Web3PublicKey[] = [];
        for (const account of accounts) {
          const key = toKey(account, 'account');
          if (key.isErr()) return err(key.error);
          keys.push(key.value);
        }
        const fees = await connection.getRecentPrioritizationFees({ lockedWritableAccounts: keys });
        return ok(fees.map((entry) => ({ slot: BigInt(entry.slot), fee: BigInt(entry.prioritizationFee) })));
      }),
    getNft: (mint) => attempt('getNft', () => getNft(mint)),
    airdrop: (to, currency, amount) => attempt('airdrop', () => airdrop(to, currency, amount)),
  };
}

export interface DiscoverCurrenciesOptions {
  readonly rpcUrl: string;
  /** Mints from config (e.g. USDC_MINT / PROJECT_MINT); when absent, asked of the localnet. */
  readonly stableMint?: string;
  readonly projectMint?: string;
  /** Ticker of the project token; default: the localnet's, else PROJ. */
  readonly projectTicker?: string;
  readonly fetch?: typeof fetch;
}

export interface DiscoveredCurrencies {
  readonly currencies: Currencies;
  /** Set when the endpoint is a token-actions localnet (it answered `localnet_getMints`). */
  readonly localnet?: { readonly mintAuthority: string; readonly genesisHash: string };
}

interface LocalnetMints {
  mintAuthority: string;
  genesisHash: string;
  currencies: { code: string; kind: string; decimals: number; mint?: string; tokenProgram?: string }[];
}

/**
 * The currencies of a cluster: the given mints, read on chain for their decimals and token program;
 * or, with no mints given, those of a token-actions localnet (custom method `localnet_getMints`).
 */
export async function discoverRpcCurrencies(
  options: DiscoverCurrenciesOptions,
): Promise<DiscoveredCurrencies> {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const native: Currency = { code: 'SOL', kind: 'native', decimals: 9 };
  if (options.stableMint === undefined || options.projectMint === undefined) {
    if (options.stableMint !== undefined || options.projectMint !== undefined) {
      throw new Error('set both USDC_MINT and PROJECT_MINT, or neither (to use the localnet mints)');
    }
    let answer: LocalnetMints;
    try {
      answer = (await callJsonRpc(fetchFn, options.rpcUrl, 'localnet_getMints', [])) as LocalnetMints;
    } catch (cause) {
      if (cause instanceof JsonRpcError && cause.code === -32601) {
        throw new Error(`${options.rpcUrl} is not a token-actions localnet: set USDC_MINT and PROJECT_MINT`);
      }
      throw new Error(`cannot reach ${options.rpcUrl}: ${(cause as Error).message}`);
    }
    const stable = answer.currencies.find((c) => c.kind === 'stable');
    const project = answer.currencies.find((c) => c.kind === 'project');
    if (!stable?.mint || !project?.mint)
      throw new Error(`${options.rpcUrl} reported no stablecoin or project mint`);
    const toCurrency = (c: typeof stable, code: string, kind: 'stable' | 'project'): Currency => ({
      code,
      kind,
      decimals: c.decimals,
      mint: c.mint as PublicKey,
      ...(c.tokenProgram ? { tokenProgram: c.tokenProgram as PublicKey } : {}),
    });
    return {
      currencies: new Currencies(
        native,
        toCurrency(stable, stable.code, 'stable'),
        toCurrency(project, options.projectTicker ?? project.code, 'project'),
      ),
      localnet: { mintAuthority: answer.mintAuthority, genesisHash: answer.genesisHash },
    };
  }

  const connection = new Connection(options.rpcUrl, {
    commitment: 'confirmed',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const mints = [options.stableMint, options.projectMint];
  for (const mint of mints) if (!isPublicKey(mint)) throw new Error(`${mint} is not a base58 public key`);
  const accounts = await connection.getMultipleAccountsInfo(mints.map((mint) => new Web3PublicKey(mint)));
  const read = (index: number, code: string, kind: 'stable' | 'project'): Currency => {
    const account = accounts[index];
    const mint = mints[index]!;
    if (!account || !TOKEN_PROGRAMS.has(account.owner.toBase58()) || account.data.length < 82) {
      throw new Error(`${mint} is not a token mint on ${options.rpcUrl}`);
    }
    return {
      code,
      kind,
      decimals: account.data[44]!,
      mint: mint as PublicKey,
      tokenProgram: account.owner.toBase58() as PublicKey,
    };
  };
  return {
    currencies: new Currencies(
      native,
      read(0, 'USDC', 'stable'),
      read(1, (options.projectTicker ?? 'PROJ').toUpperCase(), 'project'),
    ),
  };
}
