import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { type TransactionInstruction, PublicKey as Web3PublicKey } from '@solana/web3.js';
import {
  assembleTransaction,
  type ChainCommitment,
  type ChainIntent,
  type ChainPort,
  type ChainStatus,
  type ClusterInfo,
  Currencies,
  type Currency,
  type DomainError,
  decodeBase58,
  domainError,
  encodeBase58,
  fromBase64,
  isPublicKey,
  type NftMetadata,
  type PreparedTransaction,
  type PrepareOptions,
  type PrioritizationFee,
  type PublicKey,
  type Signature,
  toBase64,
} from '@token-actions/core';
import { Account, FailedTransactionMetadata, LiteSVM, TransactionMetadata } from 'litesvm';
import { err, errAsync, ok, okAsync, type Result, type ResultAsync } from 'neverthrow';
import { compileLegacyMessage } from '../shared/compile.js';
import { deriveSeed, type LocalSigner, signerFromSeed } from '../shared/ed25519.js';
import { describeTransactionError, simulationFailure, type TransactionErrorJson } from '../shared/failure.js';
import {
  associatedTokenAddress,
  computeBudgetInstructions,
  createFungibleMint,
  solTransfer,
  TOKEN_2022_PROGRAM_ID,
  tokenMintTo,
} from '../shared/instructions.js';
import {
  buildIntent,
  checkAmount,
  checkPrice,
  compileTrial,
  computeUnitLimitFor,
  finalizePrepared,
  insufficientTokens,
  LAMPORTS_PER_SIGNATURE,
  type Outcome,
  PRIORITIZATION_FEE_ACCOUNT_LIMIT,
  priorityFeeLamports,
  STATUS_BATCH_LIMIT,
  toKey,
  tokenAccountAmount,
} from '../shared/intents.js';
import {
  computeUnitPriceOf,
  feeOf,
  isWritable,
  isZero,
  type ParsedMessage,
  type ParsedTransaction,
  parseMessage,
  parseTransaction,
} from '../shared/message.js';
import { decodeNftMint } from '../shared/nft.js';
import { logsOf, transactionErrorJson } from './failure.js';
import {
  JOURNAL_FORMAT,
  type JournalRecord,
  LocalnetJournal,
  loadOrCreateSeed,
  type StoredAccountJson,
  type TxRecordJson,
} from './journal.js';
import { type Landed, Ledger, type RecordLocation } from './ledger.js';
import { type NativeSvm, nativeOf } from './native.js';

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
  /** Keeps the chain under `<dataDir>/localnet/`: every landed transaction is on disk before `send`
   * returns, and a chain opened on the same directory (after a restart, even `kill -9`) resumes
   * with every account, transaction status and issued blockhash. Without it the chain is in memory. */
  readonly dataDir?: string;
  /** Journal size from which the next start compacts it into a snapshot; default 64 MiB. */
  readonly compactJournalBytes?: number;
}

export interface IssuedBlockhash {
  readonly blockhash: string;
  /** The last block height at which a transaction using it is accepted. */
  readonly lastValidBlockHeight: bigint;
}

export interface LocalAccount {
  readonly address: string;
  readonly lamports: bigint;
  /** Base58 address of the owning program. */
  readonly owner: string;
  readonly executable: boolean;
  readonly data: Uint8Array;
}

/** Why wire bytes were not executed. `err` and `logs` are set when the runtime looked at them. */
export interface WireRejection {
  readonly reason: 'malformed' | 'signature' | 'blockhash' | 'preflight' | 'rejected' | 'unavailable';
  readonly code: 'INVALID_INPUT' | 'INSUFFICIENT_FUNDS' | 'CHAIN_UNAVAILABLE';
  /** Short, readable, safe to show a caller. */
  readonly message: string;
  readonly err?: TransactionErrorJson;
  readonly logs?: readonly string[];
  readonly unitsConsumed?: bigint;
}

export interface SimulateOptions {
  /** Check signatures (default false, as the JSON-RPC). */
  readonly sigVerify?: boolean;
  /** Run even if the blockhash is unknown or expired, and report the current one. */
  readonly replaceRecentBlockhash?: boolean;
  /** Addresses whose state after the simulation is wanted. */
  readonly accounts?: readonly string[];
}

export interface Simulation {
  readonly err: TransactionErrorJson | null;
  readonly logs: readonly string[];
  readonly unitsConsumed: bigint;
  /** In the order asked for; null for an account that does not exist afterwards. */
  readonly accounts?: readonly (LocalAccount | null)[];
  readonly returnData?: { readonly programId: string; readonly data: Uint8Array } | null;
  readonly replacementBlockhash?: IssuedBlockhash;
}

export interface LandedStatus {
  readonly slot: bigint;
  readonly commitment: ChainCommitment;
  /** Slots on top of the landing slot; null once finalized (as the JSON-RPC reports it). */
  readonly confirmations: number | null;
  readonly err: TransactionErrorJson | null;
  readonly error?: string;
}

export interface LandedTransaction extends LandedStatus {
  readonly signature: string;
  readonly wire: Uint8Array;
  readonly message: ParsedMessage;
  /** Unix seconds. */
  readonly blockTime: number;
  readonly fee: bigint;
  readonly unitsConsumed: bigint;
  readonly logs: readonly string[];
  /** Lamports of every account of the message (static keys, then loaded writable, then loaded readonly). */
  readonly preBalances: readonly bigint[];
  readonly postBalances: readonly bigint[];
  readonly loadedAddresses: { readonly writable: readonly string[]; readonly readonly: readonly string[] };
}

export interface TokenHolding {
  readonly address: string;
  readonly owner: string;
  readonly amount: bigint;
}

export interface EpochInfo {
  readonly epoch: bigint;
  readonly slotIndex: bigint;
  readonly slotsInEpoch: bigint;
  readonly absoluteSlot: bigint;
  readonly blockHeight: bigint;
  readonly transactionCount: bigint;
}

export interface LocalnetChain extends ChainPort {
  readonly currencies: Currencies;
  /** The localnet's own key: mint authority of the stablecoin and the project token, and faucet. */
  readonly mintAuthority: PublicKey;
  /** Derived from the seed: the same across restarts, different for another seed. */
  readonly genesisHash: string;
  /** Where the chain keeps its state (`<dataDir>/localnet`), when it does. */
  readonly stateDir: string | undefined;
  /** The current slot (also the block height: the localnet skips no slot). */
  slot(): bigint;
  /** Advances `slots` slots (default 1), with a new blockhash. */
  tick(slots?: number): void;
  /** Credits lamports from the localnet's faucet at once; throws if that fails (a start-up helper). */
  fund(owner: PublicKey, lamports: bigint): Signature;
  /** Stops the slot timer and, when persistent, closes the state files (sends fail afterwards).
   * An in-memory chain keeps answering; `tick` still advances it. */
  close(): void;
  /** The URL reported in `cluster.rpcUrl`, once the JSON-RPC endpoint knows its port. */
  setRpcUrl(url: string): void;

  // What the JSON-RPC endpoint serves, synchronously and in the RPC's own terms.
  /** The current blockhash, recorded (durably) as issued so transactions signed with it land. */
  latestBlockhash(): IssuedBlockhash;
  isBlockhashValid(blockhash: string): boolean;
  /** Lands signed wire bytes; with `preflight`, simulates first and refuses what would fail. */
  sendWire(wire: Uint8Array, options?: { readonly preflight?: boolean }): Result<Signature, WireRejection>;
  simulateWire(wire: Uint8Array, options?: SimulateOptions): Result<Simulation, WireRejection>;
  account(address: string): LocalAccount | null;
  landed(signature: string): LandedStatus | null;
  transaction(signature: string): LandedTransaction | null;
  /** Token accounts of a mint, largest first (at most 20). */
  tokenHolders(mint: string): TokenHolding[];
  minimumBalance(space: number): bigint;
  epochInfo(): EpochInfo;
  /** Lamports a message would pay: 5,000 a signature plus its priority fee. */
  feeFor(message: Uint8Array): bigint | null;
}

const DEFAULTS = {
  projectTicker: 'PROJ',
  slotIntervalMs: 400,
  confirmationDepthSlots: 1,
  finalityDepthSlots: 32,
  blockhashValiditySlots: 150,
  rpcUrl: 'http://127.0.0.1:8899',
  historySize: 100_000,
  compactJournalBytes: 64 * 1024 * 1024,
} as const;

const FAUCET_LAMPORTS = 1_000_000_000n * 1_000_000_000n;
/** Full records (wire, logs, balances) kept in memory for getTransaction; older ones come from disk. */
const RECENT_DETAILS = 5_000;
const ACCOUNTS_PER_RECORD = 256;
const ALT_HEADER_BYTES = 56;
const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
const TOKEN_2022 = TOKEN_2022_PROGRAM_ID.toBase58();
const TOKEN_CLASSIC = TOKEN_PROGRAM_ID.toBase58();

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

function run<T>(what: string, body: () => Outcome<T>): ResultAsync<T, DomainError> {
  let outcome: Outcome<T>;
  try {
    outcome = body();
  } catch (cause) {
    return errAsync(domainError('CHAIN_UNAVAILABLE', `localnet ${what} failed`, { cause }));
  }
  return outcome.isOk() ? okAsync(outcome.value) : errAsync(outcome.error);
}

function keyBytes(address: string): Uint8Array | undefined {
  const bytes = isPublicKey(address) ? decodeBase58(address) : undefined;
  return bytes?.length === 32 ? bytes : undefined;
}

function accountJson(address: string, account: LocalAccount): StoredAccountJson {
  return [
    address,
    account.lamports.toString(),
    account.owner,
    account.executable ? 1 : 0,
    toBase64(account.data),
  ];
}

/** Details of a landed transaction that only getTransaction needs. */
interface Detail {
  readonly wire: Uint8Array;
  readonly blockTime: number;
  readonly fee: bigint;
  readonly unitsConsumed: bigint;
  readonly logs: readonly string[];
  readonly preBalances: readonly bigint[];
  readonly postBalances: readonly bigint[];
}

/**
 * An in-process Solana "localnet" on LiteSVM: real programs (System, SPL Token, Token-2022, ATA)
 * executing real transactions, with slots advancing on a timer so statuses move
 * processed -> confirmed -> finalized, a real blockhash validity window, and (with `dataDir`)
 * state that survives restarts.
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
  const compactJournalBytes = positiveInteger(
    config.compactJournalBytes,
    DEFAULTS.compactJournalBytes,
    'compactJournalBytes',
  );
  const stateDir = config.dataDir === undefined ? undefined : join(config.dataDir, 'localnet');
  const seed = config.seed ?? (stateDir ? loadOrCreateSeed(stateDir) : new Uint8Array(randomBytes(32)));
  if (seed.length !== 32) throw new Error('seed must be 32 bytes');
  const projectTicker = (config.projectTicker ?? DEFAULTS.projectTicker).toUpperCase();
  let cluster: ClusterInfo = { name: 'localnet', rpcUrl: config.rpcUrl ?? DEFAULTS.rpcUrl };
  const genesisHash = encodeBase58(deriveSeed(seed, 'genesis'));

  const svm = new LiteSVM()
    .withLamports(1n << 62n)
    .withTransactionHistory(BigInt(historySize))
    // Expiry is enforced below against a real validity window; LiteSVM alone accepts only the latest blockhash.
    .withBlockhashCheck(false);
  const native: NativeSvm = nativeOf(svm);

  // The localnet's own keys and mints.
  const authority = signerFromSeed(deriveSeed(seed, 'mint-authority'));
  const authorityKey = new Web3PublicKey(authority.publicKey);
  const stableMintSigner = signerFromSeed(deriveSeed(seed, 'stable-mint'));
  const projectMintSigner = signerFromSeed(deriveSeed(seed, 'project-mint'));
  const stableMint = new Web3PublicKey(stableMintSigner.publicKey);
  const projectMint = new Web3PublicKey(projectMintSigner.publicKey);

  let slot = svm.getClock().slot;
  let firstSlot = slot;
  /** Blockhashes handed out, by the block height they were issued at (oldest first). A blockhash
   * reaches a client only through this map, and each entry is on disk before it is handed out. */
  const issued = new Map<string, bigint>();
  /** Mint -> owner of NFTs minted here (their mint key signed the transaction that created their
   * owner's token account): an owner can't be found from a mint cheaply. */
  const nftOwners = new Map<string, string>();
  /** Every account a journaled transaction wrote: what a compaction has to save. */
  const knownAccounts = new Set<string>();
  const details = new Map<string, Detail>();
  let ledger: Ledger;
  let prepareCount = 0;
  let localTxCount = 0;
  let transactionCount = 0n;
  let journal: LocalnetJournal | undefined;
  /** On disk: every slot shown so far is at or below it, so a restart resumes above it. Moving it
   * ahead in steps costs one fsync per `reserveStep` slots instead of one per slot. */
  let reservedSlot = 0n;
  const reserveStep = BigInt(Math.max(1, Math.min(32, Math.floor(Number(validity) / 4))));
  let closed = false;
  /** Set when a write to disk failed: the in-memory chain may be ahead of the disk, so nothing more is accepted. */
  let broken: string | undefined;

  // A fresh LiteSVM derives the same blockhash sequence every time; a random nonce per process keeps
  // blockhashes issued after a restart distinct from every earlier one, so a message compiled now
  // can never repeat (and be mistaken for) one signed before the restart.
  const bootNonce = randomBytes(32);
  const blockhashAt = (height: bigint): string => {
    const h = createHash('sha256').update(bootNonce);
    const buffer = Buffer.alloc(8);
    buffer.writeBigUInt64LE(height);
    return encodeBase58(new Uint8Array(h.update(buffer).digest()));
  };
  let currentBlockhash = '';

  const setWallClock = () => {
    const clock = svm.getClock();
    clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000));
    svm.setClock(clock);
  };

  const persist = (records: JournalRecord[], sync: boolean): RecordLocation[] | undefined => {
    if (!journal) return undefined;
    try {
      return journal.append(records, sync);
    } catch (cause) {
      broken = `localnet state could not be written: ${(cause as Error).message}`;
      throw cause;
    }
  };

  const reserveThrough = (height: bigint) => {
    if (!journal || height < reservedSlot) return;
    const next = height + reserveStep;
    persist([{ t: 'slot', s: next.toString() }], true);
    reservedSlot = next;
  };

  const moveTo = (height: bigint) => {
    reserveThrough(height);
    slot = height;
    svm.warpToSlot(slot);
    setWallClock();
    currentBlockhash = blockhashAt(slot);
    for (const [hash, issuedAt] of issued) {
      if (issuedAt + validity >= slot) break;
      issued.delete(hash);
    }
    ledger?.advanceTo(slot);
  };

  const tick = (slots = 1) => {
    if (!Number.isSafeInteger(slots) || slots < 1) return;
    if (journal && (closed || broken)) return;
    try {
      moveTo(slot + BigInt(slots));
    } catch {
      // The slot could not be reserved on disk: stand still rather than show an unrecorded slot.
      if (timer) clearInterval(timer);
    }
  };

  const issueBlockhash = (sync: boolean): { blockhash: string; issuedAt: bigint } => {
    const known = issued.get(currentBlockhash);
    if (known !== undefined) return { blockhash: currentBlockhash, issuedAt: known };
    persist([{ t: 'bh', h: currentBlockhash, s: slot.toString() }], sync);
    issued.set(currentBlockhash, slot);
    return { blockhash: currentBlockhash, issuedAt: slot };
  };

  const rentExempt = (space: number) => native.minimumBalanceForRentExemption(BigInt(space));

  const readAccount = (address: string, bytes = keyBytes(address)): LocalAccount | null => {
    if (!bytes) return null;
    const account = native.getAccount(bytes);
    if (!account) return null;
    const lamports = account.lamports();
    if (lamports === 0n) return null;
    return {
      address,
      lamports,
      owner: encodeBase58(account.owner()),
      executable: account.executable(),
      data: account.data(),
    };
  };

  const writeAccount = (
    address: string,
    lamports: bigint,
    owner: string,
    executable: boolean,
    data: Uint8Array,
  ) => {
    const bytes = keyBytes(address);
    const ownerBytes = keyBytes(owner);
    if (!bytes || !ownerBytes) throw new Error(`stored account ${address} is malformed`);
    native.setAccount(bytes, new Account(lamports, data, ownerBytes, executable, 0n));
  };

  const tokenBalanceAt = (account: Web3PublicKey, tokenProgram: Web3PublicKey): bigint => {
    const found = readAccount(account.toBase58(), account.toBytes());
    if (!found || found.owner !== tokenProgram.toBase58()) return 0n;
    return tokenAccountAmount(found.data);
  };

  const tokenBalance = (mint: Web3PublicKey, owner: Web3PublicKey, tokenProgram: Web3PublicKey): bigint =>
    tokenBalanceAt(associatedTokenAddress(mint, owner, tokenProgram), tokenProgram);

  /** Accounts a v0 message loads from lookup tables; empty for legacy messages. */
  const loadedAddresses = (message: ParsedMessage): { writable: Uint8Array[]; readonly: Uint8Array[] } => {
    const writable: Uint8Array[] = [];
    const readonly: Uint8Array[] = [];
    for (const lookup of message.lookups) {
      const table = native.getAccount(lookup.accountKey);
      const data = table?.data();
      const addressAt = (index: number) => {
        const start = ALT_HEADER_BYTES + index * 32;
        return data && start + 32 <= data.length ? data.slice(start, start + 32) : undefined;
      };
      for (const index of lookup.writableIndexes) {
        const address = addressAt(index);
        if (address) writable.push(address);
      }
      for (const index of lookup.readonlyIndexes) {
        const address = addressAt(index);
        if (address) readonly.push(address);
      }
    }
    return { writable, readonly };
  };

  const nativeSend = (parsed: ParsedTransaction, wire: Uint8Array) =>
    parsed.message.version === 'legacy'
      ? native.sendLegacyTransaction(wire)
      : native.sendVersionedTransaction(wire);

  const nativeSimulate = (parsed: ParsedTransaction, wire: Uint8Array, sigVerify: boolean) => {
    native.setSigverify(sigVerify);
    try {
      return parsed.message.version === 'legacy'
        ? native.simulateLegacyTransaction(wire)
        : native.simulateVersionedTransaction(wire);
    } finally {
      native.setSigverify(true);
    }
  };

  const rejection = (
    reason: WireRejection['reason'],
    message: string,
    extra: Partial<Pick<WireRejection, 'err' | 'logs' | 'unitsConsumed' | 'code'>> = {},
  ): WireRejection => ({
    reason,
    code: reason === 'unavailable' ? 'CHAIN_UNAVAILABLE' : 'INVALID_INPUT',
    message,
    ...extra,
  });

  const parseWire = (wire: Uint8Array): Result<ParsedTransaction, WireRejection> => {
    if (!(wire instanceof Uint8Array)) return err(rejection('malformed', 'transaction must be bytes'));
    try {
      return ok(parseTransaction(wire));
    } catch (cause) {
      return err(rejection('malformed', `malformed transaction: ${(cause as Error).message}`));
    }
  };

  /** Records NFT owners: an associated-token-account creation for a Token-2022 mint whose key signed. */
  const mintedNfts = (message: ParsedMessage): [string, string][] => {
    const signers = message.accountKeys.slice(0, message.numRequiredSignatures).map(encodeBase58);
    const found: [string, string][] = [];
    for (const ix of message.instructions) {
      const program = message.accountKeys[ix.programIndex];
      if (!program || encodeBase58(program) !== ATA_PROGRAM || ix.accountIndexes.length < 6) continue;
      const key = (position: number) => {
        const index = ix.accountIndexes[position]!;
        const bytes = message.accountKeys[index];
        return bytes ? encodeBase58(bytes) : undefined;
      };
      const owner = key(2);
      const mint = key(3);
      if (owner && mint && key(5) === TOKEN_2022 && signers.includes(mint)) found.push([mint, owner]);
    }
    return found;
  };

  const landedStatus = (entry: Landed): LandedStatus => {
    const commitment = ledger.commitmentOf(entry, slot);
    return {
      slot: entry.slot,
      commitment,
      confirmations: commitment === 'finalized' ? null : Number(slot - entry.slot),
      err: entry.err ?? null,
      ...(entry.error === undefined ? {} : { error: entry.error }),
    };
  };

  /** After execution: reads what the transaction wrote, remembers it, and puts it on disk. */
  const recordLanded = (
    id: string,
    parsed: ParsedTransaction,
    wire: Uint8Array,
    issuedAt: bigint,
    keys: readonly Uint8Array[],
    writableFlags: readonly boolean[],
    preBalances: readonly bigint[],
    outcome: TransactionMetadata | FailedTransactionMetadata,
  ) => {
    const failed = outcome instanceof FailedTransactionMetadata;
    const errJson = failed ? transactionErrorJson(outcome) : undefined;
    const logs = failed ? logsOf(outcome) : outcome.logs();
    const meta = failed ? outcome.meta() : outcome;
    const unitsConsumed = meta.computeUnitsConsumed();
    const message = parsed.message;
    const error =
      errJson === undefined ? undefined : describeTransactionError(errJson, logs, message).message;

    const written: StoredAccountJson[] = [];
    const closedAccounts: string[] = [];
    const postBalances = preBalances.slice();
    for (let i = 0; i < keys.length; i++) {
      if (!writableFlags[i]) continue;
      const address = encodeBase58(keys[i]!);
      const after = readAccount(address, keys[i]);
      postBalances[i] = after?.lamports ?? 0n;
      if (!journal) continue;
      knownAccounts.add(address);
      if (after) written.push(accountJson(address, after));
      else closedAccounts.push(address);
    }
    const minted = failed ? [] : mintedNfts(message);
    for (const [mint, owner] of minted) nftOwners.set(mint, owner);

    const fee = feeOf(message);
    const blockTime = Math.floor(Date.now() / 1000);
    const entry: Landed = {
      slot,
      lastValidBlockHeight: issuedAt + validity,
      ...(error === undefined ? {} : { error, err: errJson }),
    };
    const writableKeys = failed ? [] : keys.filter((_, i) => writableFlags[i]).map(encodeBase58);
    ledger.record(
      id,
      entry,
      slot,
      failed ? undefined : { price: computeUnitPriceOf(message), writable: writableKeys },
    );
    transactionCount++;
    const detail: Detail = {
      wire: wire.slice(),
      blockTime,
      fee,
      unitsConsumed,
      logs,
      preBalances,
      postBalances,
    };
    details.set(id, detail);
    if (details.size > RECENT_DETAILS) details.delete(details.keys().next().value!);

    if (journal) {
      const record: TxRecordJson = {
        t: 'tx',
        w: toBase64(wire),
        s: slot.toString(),
        v: entry.lastValidBlockHeight.toString(),
        bt: blockTime,
        f: fee.toString(),
        cu: unitsConsumed.toString(),
        ...(errJson === undefined ? {} : { e: errJson, m: error }),
        l: logs,
        pre: preBalances.map(String),
        post: postBalances.map(String),
        a: written,
        ...(closedAccounts.length > 0 ? { x: closedAccounts } : {}),
        ...(minted.length > 0 ? { o: minted } : {}),
      };
      const [location] = persist([record], true)!;
      entry.location = location;
    }
  };

  // Lands a transaction after the checks a validator's RPC would make; the one path for every send.
  const submit = (wire: Uint8Array, preflight = false): Result<Signature, WireRejection> => {
    if (journal && closed) return err(rejection('unavailable', 'the localnet is closed'));
    if (broken) return err(rejection('unavailable', broken));
    const parsedResult = parseWire(wire);
    if (parsedResult.isErr()) return err(parsedResult.error);
    const parsed = parsedResult.value;
    if (parsed.signatures.some(isZero)) {
      return err(rejection('signature', 'transaction is missing a signature', { err: 'SignatureFailure' }));
    }
    const id = encodeBase58(parsed.signatures[0]!) as Signature;
    if (ledger.has(id)) return ok(id);

    const blockhash = encodeBase58(parsed.message.recentBlockhash);
    const issuedAt = issued.get(blockhash);
    if (issuedAt === undefined || slot > issuedAt + validity) {
      return err(
        rejection('blockhash', 'blockhash not found or expired', { err: 'BlockhashNotFound', logs: [] }),
      );
    }
    if (preflight) {
      const simulated = nativeSimulate(parsed, wire, true);
      if (simulated instanceof FailedTransactionMetadata) {
        const errJson = transactionErrorJson(simulated);
        if (errJson === 'SignatureFailure') {
          return err(rejection('signature', 'transaction signature verification failed', { err: errJson }));
        }
        const logs = logsOf(simulated);
        const failure = describeTransactionError(errJson, logs, parsed.message);
        if (failure.kind !== 'already_processed') {
          return err(
            rejection('preflight', failure.message, {
              err: errJson,
              logs,
              unitsConsumed: simulated.meta().computeUnitsConsumed(),
              code: failure.kind === 'insufficient_funds' ? 'INSUFFICIENT_FUNDS' : 'INVALID_INPUT',
            }),
          );
        }
      }
    }

    const loaded = loadedAddresses(parsed.message);
    const keys = [...parsed.message.accountKeys, ...loaded.writable, ...loaded.readonly];
    const staticCount = parsed.message.accountKeys.length;
    const writableFlags = keys.map((_, i) =>
      i < staticCount ? isWritable(parsed.message, i) : i < staticCount + loaded.writable.length,
    );
    const preBalances = keys.map((key) => native.getBalance(key) ?? 0n);

    const result = nativeSend(parsed, wire);
    if (result instanceof TransactionMetadata) {
      recordLanded(id, parsed, wire, issuedAt, keys, writableFlags, preBalances, result);
      return ok(id);
    }
    if (result instanceof FailedTransactionMetadata) {
      const errJson = transactionErrorJson(result);
      const logs = logsOf(result);
      const failure = describeTransactionError(errJson, logs, parsed.message);
      if (failure.kind === 'already_processed') {
        // LiteSVM's own history knew it though the ledger did not (it outlived the ledger's window).
        return ok(id);
      }
      if (!isZero(result.meta().signature())) {
        recordLanded(id, parsed, wire, issuedAt, keys, writableFlags, preBalances, result);
        return ok(id);
      }
      if (errJson === 'SignatureFailure') {
        return err(rejection('signature', 'transaction signature verification failed', { err: errJson }));
      }
      return err(
        rejection('rejected', failure.message, {
          err: errJson,
          logs,
          code: failure.kind === 'insufficient_funds' ? 'INSUFFICIENT_FUNDS' : 'INVALID_INPUT',
        }),
      );
    }
    throw new Error('LiteSVM returned neither TransactionMetadata nor FailedTransactionMetadata');
  };

  const toDomain = (rejected: WireRejection): DomainError =>
    domainError(rejected.code, rejected.message, {
      context: { reason: rejected.reason, ...(rejected.err === undefined ? {} : { error: rejected.err }) },
    });

  /** Builds, signs with the localnet's own keys and lands a transaction. */
  const submitLocal = (
    instructions: TransactionInstruction[],
    signers: readonly LocalSigner[],
  ): Outcome<Signature> => {
    const payer = signers[0]!;
    // Identical airdrops within one blockhash would share a signature and land once; the
    // compute-unit limit (free at price 0) tells them apart.
    const nonce = 200_000 + (localTxCount++ % 1_000_000);
    const { blockhash } = issueBlockhash(false);
    const { accountKeys, numRequiredSignatures, bytes } = compileLegacyMessage(
      new Web3PublicKey(payer.publicKey),
      [...computeBudgetInstructions(nonce, 0n), ...instructions],
      blockhash,
    );
    const bySigner = new Map(signers.map((s) => [encodeBase58(s.publicKey), s]));
    const signatures = accountKeys.slice(0, numRequiredSignatures).map((key) => {
      const signer = bySigner.get(key);
      if (!signer) throw new Error(`no local key for signer ${key}`);
      return signer.sign(bytes);
    });
    return submit(assembleTransaction(bytes, signatures))
      .mapErr(toDomain)
      .andThen((id) => {
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

  // --- Start: restore from disk, or create the genesis state. ---
  let restored = false;
  let headFirstSlot: bigint | undefined;
  if (stateDir) {
    journal = LocalnetJournal.open(stateDir);
    try {
      restored = restore(journal);
    } catch (cause) {
      journal.close();
      throw cause;
    }
  }

  function restore(opened: LocalnetJournal): boolean {
    const accounts = new Map<string, StoredAccountJson | null>();
    let maxSlot = 0n;
    let baseCount = 0n;
    const pending: {
      id: string;
      parsed: ParsedTransaction;
      entry: Landed;
      fee?: { price: bigint; writable: string[] };
    }[] = [];
    const head = opened.replay((record, location) => {
      switch (record.t) {
        case 'head':
          if (record.genesis !== genesisHash) {
            throw new Error(
              `localnet state in ${opened.dir} belongs to another seed (genesis ${record.genesis}, expected ${genesisHash})`,
            );
          }
          if (record.v > JOURNAL_FORMAT)
            throw new Error(`localnet state in ${opened.dir} has a newer format`);
          headFirstSlot = BigInt(record.firstSlot);
          baseCount = BigInt(record.txCount ?? '0');
          break;
        case 'slot': {
          const s = BigInt(record.s);
          if (s > maxSlot) maxSlot = s;
          break;
        }
        case 'bh': {
          const s = BigInt(record.s);
          issued.set(record.h, s);
          if (s > maxSlot) maxSlot = s;
          break;
        }
        case 'acct':
          for (const account of record.a) accounts.set(account[0], account);
          for (const address of record.x ?? []) accounts.set(address, null);
          break;
        case 'nft':
          for (const [mint, owner] of record.o) nftOwners.set(mint, owner);
          break;
        case 'tx': {
          const wire = fromBase64(record.w);
          if (!wire) throw new Error(`localnet state in ${opened.dir}: unreadable transaction record`);
          const parsed = parseTransaction(wire);
          const id = encodeBase58(parsed.signatures[0]!);
          const txSlot = BigInt(record.s);
          if (txSlot > maxSlot) maxSlot = txSlot;
          const entry: Landed = {
            slot: txSlot,
            lastValidBlockHeight: BigInt(record.v),
            ...(record.m === undefined ? {} : { error: record.m, err: record.e as TransactionErrorJson }),
            location,
          };
          pending.push({
            id,
            parsed,
            entry,
            ...(record.m === undefined
              ? {
                  fee: {
                    price: computeUnitPriceOf(parsed.message),
                    writable: parsed.message.accountKeys
                      .filter((_, i) => isWritable(parsed.message, i))
                      .map(encodeBase58),
                  },
                }
              : {}),
          });
          if (location.file === 'journal') transactionCount++;
          for (const account of record.a ?? []) accounts.set(account[0], account);
          for (const address of record.x ?? []) accounts.set(address, null);
          for (const [mint, owner] of record.o ?? []) nftOwners.set(mint, owner);
          break;
        }
      }
    });
    if (!head) return false;
    transactionCount += baseCount;

    for (const [address, account] of accounts) {
      if (!account) continue;
      const data = fromBase64(account[4]);
      if (!data) throw new Error(`localnet state in ${opened.dir}: unreadable account ${address}`);
      writeAccount(address, BigInt(account[1]), account[2], account[3] === 1, data);
      knownAccounts.add(address);
    }
    firstSlot = headFirstSlot ?? slot;
    const resumeAt = (maxSlot > firstSlot ? maxSlot : firstSlot) + 1n;
    ledger = new Ledger(
      { confirmationDepthSlots: confirmationDepth, finalityDepthSlots: finalityDepth, historySize },
      firstSlot,
    );
    for (const { id, entry, fee } of pending) ledger.record(id, entry, resumeAt, fee);
    moveTo(resumeAt);
    ledger.trim(slot);
    return true;
  }

  if (!restored) {
    ledger = new Ledger(
      { confirmationDepthSlots: confirmationDepth, finalityDepthSlots: finalityDepth, historySize },
      slot,
    );
    persist(
      [{ t: 'head', v: JOURNAL_FORMAT, genesis: genesisHash, firstSlot: firstSlot.toString(), gen: 0 }],
      false,
    );
    moveTo(slot);
    const funded = native.airdrop(authority.publicKey, FAUCET_LAMPORTS);
    if (!(funded instanceof TransactionMetadata)) throw new Error('localnet: funding the faucet failed');
    const faucet = readAccount(authorityKey.toBase58())!;
    if (journal) {
      knownAccounts.add(faucet.address);
      persist([{ t: 'acct', a: [accountJson(faucet.address, faucet)] }], false);
    }
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
    };
    createMint(stableMintSigner, 6);
    createMint(projectMintSigner, 9);
  } else if (journal && journal.bytes > compactJournalBytes) {
    compact(journal);
  }

  function compact(opened: LocalnetJournal) {
    const moved: [Landed, RecordLocation][] = [];
    opened.compact((emit) => {
      emit({
        t: 'head',
        v: JOURNAL_FORMAT,
        genesis: genesisHash,
        firstSlot: firstSlot.toString(),
        gen: 0,
        txCount: transactionCount.toString(),
      });
      emit({ t: 'slot', s: reservedSlot.toString() });
      const owners = [...nftOwners];
      for (let i = 0; i < owners.length; i += ACCOUNTS_PER_RECORD) {
        emit({ t: 'nft', o: owners.slice(i, i + ACCOUNTS_PER_RECORD) });
      }
      for (const [hash, issuedAt] of issued) emit({ t: 'bh', h: hash, s: issuedAt.toString() });
      let batch: StoredAccountJson[] = [];
      for (const address of knownAccounts) {
        const account = readAccount(address);
        if (!account) {
          knownAccounts.delete(address);
          continue;
        }
        batch.push(accountJson(address, account));
        if (batch.length === ACCOUNTS_PER_RECORD) {
          emit({ t: 'acct', a: batch });
          batch = [];
        }
      }
      if (batch.length > 0) emit({ t: 'acct', a: batch });
      for (const [id, entry] of ledger.entries()) {
        const stored = entry.location ? opened.read(entry.location) : undefined;
        // Dropping a record would forget its signature, and with it the dedupe: stop instead (the
        // snapshot is not in place yet, so the previous state stays intact).
        if (stored?.t !== 'tx') throw new Error(`localnet compaction: cannot read back transaction ${id}`);
        const { a: _a, x: _x, o: _o, ...kept } = stored;
        moved.push([entry, emit(kept)]);
      }
    });
    for (const [entry, location] of moved) entry.location = location;
  }

  const ownMints = new Map<string, Currency>();
  const tokenProgramKey = TOKEN_CLASSIC as PublicKey;
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
  ownMints.set(stableMint.toBase58(), currencies.stable);
  ownMints.set(projectMint.toBase58(), currencies.project);
  for (const mint of ownMints.keys()) {
    if (!readAccount(mint)) throw new Error(`localnet: mint ${mint} is missing from the restored state`);
  }

  const simulateUnsigned = (messageBytes: Uint8Array, signatures: number) => {
    const unsigned = assembleTransaction(
      messageBytes,
      Array.from({ length: signatures }, () => new Uint8Array(64)),
    );
    return nativeSimulate(parseTransaction(unsigned), unsigned, false);
  };

  const prepare = (intent: ChainIntent, options: PrepareOptions): Outcome<PreparedTransaction> => {
    const price = checkPrice(options.computeUnitPrice);
    if (price.isErr()) return err(price.error);
    const payerKey = toKey(options.feePayer, 'feePayer');
    if (payerKey.isErr()) return err(payerKey.error);
    const feePayer = payerKey.value;
    const built = buildIntent(intent, feePayer, rentExempt);
    if (built.isErr()) return err(built.error);
    const source = built.value.tokenSource;
    if (source) {
      const held = tokenBalanceAt(
        source.account,
        new Web3PublicKey(source.currency.tokenProgram ?? TOKEN_CLASSIC),
      );
      if (held < source.amount)
        return err(insufficientTokens(source, (intent as { from: string }).from, held));
    }

    const trial = compileTrial(feePayer, built.value, currentBlockhash);
    if (trial.isErr()) return err(trial.error);
    const signatureCount = trial.value.numRequiredSignatures;
    const simulated = simulateUnsigned(trial.value.bytes, signatureCount);
    if (simulated instanceof FailedTransactionMetadata) {
      return err(
        simulationFailure(
          transactionErrorJson(simulated),
          logsOf(simulated),
          parseMessage(trial.value.bytes),
        ),
      );
    }
    const consumed = simulated.meta().computeUnitsConsumed();
    const computeUnitLimit = computeUnitLimitFor(consumed, prepareCount++);
    const priorityFee = priorityFeeLamports(price.value, computeUnitLimit);

    if (priorityFee > 0n) {
      // The simulation paid no priority fee; the fee payer must afford it on top and stay rent-exempt.
      // Reading the simulated accounts back is slow, so a payer far richer than the transaction
      // could cost is let through at once.
      const before = native.getBalance(feePayer.toBytes()) ?? 0n;
      const worstCase =
        LAMPORTS_PER_SIGNATURE * BigInt(signatureCount) +
        priorityFee +
        built.value.feePayerSpend +
        2n * rentExempt(4_096);
      if (before < worstCase + rentExempt(0)) {
        const payerBytes = feePayer.toBytes();
        const after = simulated
          .postAccounts()
          .find((account) => Buffer.from(account.address).equals(Buffer.from(payerBytes)));
        const remaining = (after?.account().lamports() ?? 0n) - priorityFee;
        if (remaining < 0n || (remaining > 0n && remaining < rentExempt(0))) {
          return err(domainError('INSUFFICIENT_FUNDS', 'the fee payer cannot pay the priority fee'));
        }
      }
    }

    const { blockhash, issuedAt } = issueBlockhash(true);
    return ok(
      finalizePrepared({
        feePayer,
        built: built.value,
        blockhash,
        lastValidBlockHeight: issuedAt + validity,
        computeUnitLimit,
        computeUnitPrice: price.value,
      }),
    );
  };

  const getBalance = (owner: PublicKey, currency: Currency): Outcome<bigint> =>
    toKey(owner, 'owner').andThen((ownerKey) => {
      if (currency.mint === undefined) return ok(native.getBalance(ownerKey.toBytes()) ?? 0n);
      if (!isPublicKey(currency.mint))
        return err(domainError('UNKNOWN_CURRENCY', `${currency.code} has no valid mint`));
      const tokenProgram = currency.tokenProgram
        ? new Web3PublicKey(currency.tokenProgram)
        : TOKEN_PROGRAM_ID;
      return ok(tokenBalance(new Web3PublicKey(currency.mint), ownerKey, tokenProgram));
    });

  const getNft = (mintAddress: PublicKey): Outcome<NftMetadata | null> =>
    toKey(mintAddress, 'mint').map((mintKey) => {
      const account = readAccount(mintAddress, mintKey.toBytes());
      if (!account || account.owner !== TOKEN_2022) return null;
      const decoded = decodeNftMint(mintKey, account);
      if (!decoded) return null;
      const intendedOwner = nftOwners.get(mintAddress);
      const holds =
        intendedOwner !== undefined &&
        tokenBalance(mintKey, new Web3PublicKey(intendedOwner), TOKEN_2022_PROGRAM_ID) > 0n;
      const nft: NftMetadata = { ...decoded, ...(holds ? { owner: intendedOwner as PublicKey } : {}) };
      return nft;
    });

  const airdrop = (to: PublicKey, currency: Currency, amount: bigint): Outcome<Signature> =>
    checkAmount(amount).andThen((units) =>
      toKey(to, 'to').andThen((recipient): Outcome<Signature> => {
        if (currency.mint === undefined) {
          if (units > (native.getBalance(authority.publicKey) ?? 0n) / 2n) {
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

  const simulateWire = (
    wire: Uint8Array,
    options: SimulateOptions = {},
  ): Result<Simulation, WireRejection> => {
    const parsedResult = parseWire(wire);
    if (parsedResult.isErr()) return err(parsedResult.error);
    const parsed = parsedResult.value;
    const sigVerify = options.sigVerify === true;
    if (sigVerify && options.replaceRecentBlockhash) {
      return err(rejection('malformed', 'sigVerify may not be used with replaceRecentBlockhash'));
    }
    const blockhash = encodeBase58(parsed.message.recentBlockhash);
    let replacement: IssuedBlockhash | undefined;
    if (options.replaceRecentBlockhash) {
      const current = issueBlockhash(true);
      replacement = { blockhash: current.blockhash, lastValidBlockHeight: current.issuedAt + validity };
    } else if (!chain.isBlockhashValid(blockhash)) {
      return ok({
        err: 'BlockhashNotFound',
        logs: [],
        unitsConsumed: 0n,
        accounts: options.accounts?.map(() => null),
      });
    }
    const result = nativeSimulate(parsed, wire, sigVerify);
    const read = (addresses: readonly string[], post: Map<string, LocalAccount | null>) =>
      addresses.map((address) => (post.has(address) ? post.get(address)! : readAccount(address)));
    if (result instanceof FailedTransactionMetadata) {
      const errJson = transactionErrorJson(result);
      if (sigVerify && errJson === 'SignatureFailure') {
        return err(rejection('signature', 'transaction signature verification failed', { err: errJson }));
      }
      return ok({
        err: errJson,
        logs: logsOf(result),
        unitsConsumed: result.meta().computeUnitsConsumed(),
        ...(options.accounts ? { accounts: options.accounts.map(() => null) } : {}),
        ...(replacement ? { replacementBlockhash: replacement } : {}),
      });
    }
    const post = new Map<string, LocalAccount | null>();
    if (options.accounts) {
      for (const entry of result.postAccounts()) {
        const address = encodeBase58(entry.address);
        const account = entry.account();
        post.set(
          address,
          account.lamports() === 0n
            ? null
            : {
                address,
                lamports: account.lamports(),
                owner: encodeBase58(account.owner()),
                executable: account.executable(),
                data: account.data(),
              },
        );
      }
    }
    const meta = result.meta();
    const returned = meta.returnData();
    const returnData =
      returned.data().length > 0
        ? { programId: encodeBase58(returned.programId()), data: returned.data() }
        : null;
    return ok({
      err: null,
      logs: meta.logs(),
      unitsConsumed: meta.computeUnitsConsumed(),
      returnData,
      ...(options.accounts ? { accounts: read(options.accounts, post) } : {}),
      ...(replacement ? { replacementBlockhash: replacement } : {}),
    });
  };

  const transaction = (signature: string): LandedTransaction | null => {
    const entry = ledger.get(signature);
    if (!entry) return null;
    let detail = details.get(signature);
    if (!detail && entry.location && journal && !closed) {
      const stored = journal.read(entry.location);
      const wire = stored?.t === 'tx' ? fromBase64(stored.w) : undefined;
      if (stored?.t === 'tx' && wire) {
        detail = {
          wire,
          blockTime: stored.bt,
          fee: BigInt(stored.f),
          unitsConsumed: BigInt(stored.cu),
          logs: stored.l ?? [],
          preBalances: (stored.pre ?? []).map((v) => BigInt(v)),
          postBalances: (stored.post ?? []).map((v) => BigInt(v)),
        };
      }
    }
    if (!detail) return null;
    const parsed = parseTransaction(detail.wire);
    const loaded = loadedAddresses(parsed.message);
    return {
      ...landedStatus(entry),
      signature,
      wire: detail.wire,
      message: parsed.message,
      blockTime: detail.blockTime,
      fee: detail.fee,
      unitsConsumed: detail.unitsConsumed,
      logs: detail.logs,
      preBalances: detail.preBalances,
      postBalances: detail.postBalances,
      loadedAddresses: {
        writable: loaded.writable.map(encodeBase58),
        readonly: loaded.readonly.map(encodeBase58),
      },
    };
  };

  const tokenHolders = (mint: string): TokenHolding[] => {
    const mintAccount = readAccount(mint);
    if (!mintAccount || (mintAccount.owner !== TOKEN_CLASSIC && mintAccount.owner !== TOKEN_2022)) return [];
    const program = new Web3PublicKey(mintAccount.owner);
    const owner = nftOwners.get(mint);
    if (owner) {
      const address = associatedTokenAddress(new Web3PublicKey(mint), new Web3PublicKey(owner), program);
      const amount = tokenBalanceAt(address, program);
      if (amount > 0n) return [{ address: address.toBase58(), owner, amount }];
    }
    const mintBytes = Buffer.from(decodeBase58(mint)!);
    const holdings: TokenHolding[] = [];
    for (const entry of native.getProgramAccounts(program.toBytes())) {
      const data = entry.account().data();
      // A token account is 165 bytes; Token-2022 accounts with extensions are longer and say so at byte 165.
      const isTokenAccount = data.length === 165 || (data.length > 165 && data[165] === 2);
      if (!isTokenAccount || !mintBytes.equals(Buffer.from(data.subarray(0, 32)))) continue;
      holdings.push({
        address: encodeBase58(entry.address),
        owner: encodeBase58(data.subarray(32, 64)),
        amount: tokenAccountAmount(data),
      });
    }
    holdings.sort((a, b) => (a.amount === b.amount ? 0 : a.amount > b.amount ? -1 : 1));
    return holdings.slice(0, 20);
  };

  const epochInfo = (): EpochInfo => {
    const schedule = svm.getEpochSchedule();
    const perEpoch = schedule.slotsPerEpoch;
    let epoch: bigint;
    let slotIndex: bigint;
    let slotsInEpoch: bigint;
    if (slot >= schedule.firstNormalSlot) {
      epoch = schedule.firstNormalEpoch + (slot - schedule.firstNormalSlot) / perEpoch;
      slotIndex = (slot - schedule.firstNormalSlot) % perEpoch;
      slotsInEpoch = perEpoch;
    } else {
      // Warm-up epochs double from 32 slots.
      epoch = 0n;
      slotsInEpoch = 32n;
      let start = 0n;
      while (start + slotsInEpoch <= slot) {
        start += slotsInEpoch;
        slotsInEpoch *= 2n;
        epoch++;
      }
      slotIndex = slot - start;
    }
    return { epoch, slotIndex, slotsInEpoch, absoluteSlot: slot, blockHeight: slot, transactionCount };
  };

  const timer = slotIntervalMs > 0 ? setInterval(() => tick(1), slotIntervalMs) : undefined;
  timer?.unref();

  const chain: LocalnetChain = {
    get cluster() {
      return cluster;
    },
    currencies,
    mintAuthority: authorityKey.toBase58() as PublicKey,
    genesisHash,
    stateDir,
    slot: () => slot,
    tick,
    close: () => {
      if (timer) clearInterval(timer);
      if (closed) return;
      closed = true;
      journal?.close();
    },
    setRpcUrl: (url) => {
      cluster = { name: 'localnet', rpcUrl: url };
    },
    fund: (owner, lamports) => {
      const landed = airdrop(owner, currencies.native, lamports);
      if (landed.isErr()) throw new Error(`localnet fund failed: ${landed.error.message}`);
      return landed.value;
    },
    prepare: (intent, options) => run('prepare', () => prepare(intent, options)),
    send: (wire) => run('send', () => submit(wire).mapErr(toDomain)),
    getStatuses: (ids) =>
      run('getStatuses', (): Outcome<readonly (ChainStatus | null)[]> => {
        if (!Array.isArray(ids)) return err(domainError('INVALID_INPUT', 'ids must be an array'));
        if (ids.length > STATUS_BATCH_LIMIT) {
          return err(domainError('INVALID_INPUT', `at most ${STATUS_BATCH_LIMIT} statuses per request`));
        }
        return ok(ids.map((id) => ledger.status(id, slot)));
      }),
    getBlockHeight: () => okAsync(slot),
    getBalance: (owner, currency) => run('getBalance', () => getBalance(owner, currency)),
    getRecentPrioritizationFees: (accounts) =>
      run('getRecentPrioritizationFees', (): Outcome<readonly PrioritizationFee[]> => {
        if (accounts.length > PRIORITIZATION_FEE_ACCOUNT_LIMIT) {
          return err(domainError('INVALID_INPUT', `at most ${PRIORITIZATION_FEE_ACCOUNT_LIMIT} accounts`));
        }
        return ok(ledger.prioritizationFees(accounts, slot));
      }),
    getNft: (mint) => run('getNft', () => getNft(mint)),
    airdrop: (to, currency, amount) => run('airdrop', () => airdrop(to, currency, amount)),

    latestBlockhash: () => {
      const { blockhash, issuedAt } = issueBlockhash(true);
      return { blockhash, lastValidBlockHeight: issuedAt + validity };
    },
    isBlockhashValid: (blockhash) => {
      const issuedAt = issued.get(blockhash);
      return issuedAt !== undefined && slot <= issuedAt + validity;
    },
    sendWire: (wire, options) => submit(wire, options?.preflight === true),
    simulateWire,
    account: (address) => readAccount(address),
    landed: (signature) => {
      const entry = ledger.get(signature);
      return entry ? landedStatus(entry) : null;
    },
    transaction,
    tokenHolders,
    minimumBalance: (space) => rentExempt(space),
    epochInfo,
    feeFor: (message) => {
      try {
        const parsed = parseMessage(message);
        return chain.isBlockhashValid(encodeBase58(parsed.recentBlockhash)) ? feeOf(parsed) : null;
      } catch {
        return null;
      }
    },
  };
  return chain;
}
