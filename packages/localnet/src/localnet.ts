import type {
  ChainCommitment,
  ChainStatus,
  Currencies,
  Currency,
  DomainError,
  PrioritizationFee,
  PublicKey,
  Signature,
} from '@token-actions/core';
import { encodeBase58 } from '@token-actions/core';
import type { Result } from 'neverthrow';
import { latestBlockhash, moveTo, tick } from './clock/advance.js';
import { SlotClock } from './clock/slot-clock.js';
import { type LocalnetConfig, resolveSettings, type Settings } from './config.js';
import { Listeners, type LocalnetListener } from './events/listeners.js';
import { indexLanded } from './executor/announce.js';
import { Ledger } from './executor/ledger.js';
import { airdrop } from './executor/local.js';
import { simulateWire } from './executor/simulate.js';
import { sendDurably } from './executor/submit.js';
import { checkMints, createGenesis, currenciesOf, genesisKeys } from './genesis/genesis.js';
import { type PerformanceSample, SlotTimeline } from './indexes/slots.js';
import { compact } from './persistence/compact.js';
import { Disk } from './persistence/disk.js';
import { LocalnetJournal } from './persistence/journal.js';
import { type Replayed, replay } from './persistence/restore.js';
import { nftHolder, tokenHolders } from './queries/accounts.js';
import { epochInfo, feeFor } from './queries/cluster.js';
import {
  block,
  blocksBetween,
  blockTimeOf,
  blockUnavailable,
  committedSlot,
  type SignaturesQuery,
  signaturesForAddress,
} from './queries/history.js';
import { largestAccounts, programAccounts, supply } from './queries/programs.js';
import { landed, statuses, transaction } from './queries/transactions.js';
import { History, type LocalnetState } from './state.js';
import { keyBytes, Svm } from './svm/svm.js';
import type {
  BlockUnavailable,
  EpochInfo,
  IssuedBlockhash,
  LandedStatus,
  LandedTransaction,
  LocalAccount,
  LocalBlock,
  SignatureInfo,
  SimulateOptions,
  Simulation,
  TokenHolding,
  WireRejection,
} from './types.js';

/** An embedded Solana localnet: what the JSON-RPC server and an in-process chain adapter ask of it,
 * synchronously and in the RPC's own terms. */
export interface Localnet {
  readonly currencies: Currencies;
  /** The localnet's own key: mint authority of the stablecoin and the project token, and faucet. */
  readonly mintAuthority: PublicKey;
  /** Derived from the seed: the same across restarts, different for another seed. */
  readonly genesisHash: string;
  /** Where the chain keeps its state (`<dataDir>/localnet`), when it does. */
  readonly stateDir: string | undefined;
  /** The URL the localnet is reached at (explorer links, wallets). */
  readonly rpcUrl: string;
  /** Its PubSub websocket: given to `setRpcUrl`, else the RPC URL's port + 1 (as web3.js derives it). */
  readonly wsUrl: string;
  /** Once the JSON-RPC endpoint (and its websocket) know their ports. */
  setRpcUrl(url: string, wsUrl?: string): void;
  /** The node's identity, derived from the seed: the leader of every slot. */
  readonly identity: string;
  /** The current slot (also the block height: the localnet skips no slot). */
  slot(): bigint;
  /** Advances `slots` slots (default 1), with a new blockhash. */
  tick(slots?: number): void;
  /** Stops the slot timer and, when persistent, closes the state files (sends fail afterwards).
   * An in-memory localnet keeps answering; `tick` still advances it. */
  close(): void;

  /** The current blockhash, recorded (durably) as issued so transactions signed with it land. */
  latestBlockhash(): Promise<IssuedBlockhash>;
  isBlockhashValid(blockhash: string): boolean;
  /** Lands signed wire bytes (answered once on disk; concurrent sends share one fsync); with
   * `preflight`, simulates first and refuses what would fail. Sending a landed transaction again
   * never executes it twice. */
  sendWire(
    wire: Uint8Array,
    options?: { readonly preflight?: boolean },
  ): Promise<Result<Signature, WireRejection>>;
  simulateWire(wire: Uint8Array, options?: SimulateOptions): Result<Simulation, WireRejection>;
  /** The faucet: SOL, or the localnet's own stablecoin and project token minted. */
  airdrop(to: string, currency: Currency, amount: bigint): Result<Signature, DomainError>;
  /** Credits lamports from the faucet at once; throws if that fails (a start-up helper). */
  fund(owner: string, lamports: bigint): Signature;

  account(address: string): LocalAccount | null;
  /** 0 for an account that does not exist (or an address that is not one). */
  lamports(address: string): bigint;
  landed(signature: string): LandedStatus | null;
  /** Statuses in the chain port's terms, in order; null for a transaction not seen landing. */
  statuses(ids: readonly string[]): (ChainStatus | null)[];
  transaction(signature: string): LandedTransaction | null;
  /** Token accounts of a mint, largest first (at most 20). */
  tokenHolders(mint: string): TokenHolding[];
  /** The owner an NFT was minted to, while it still holds it. */
  nftOwner(mint: string): string | undefined;
  /** Per recent slot, the fee a transaction locking `accounts` writable had to beat. */
  prioritizationFees(accounts: readonly string[]): PrioritizationFee[];
  minimumBalance(space: number): bigint;
  epochInfo(): EpochInfo;
  /** Lamports a message would pay: 5,000 a signature plus its priority fee. */
  feeFor(message: Uint8Array): bigint | null;

  /** Hears every landing and every slot; at once, the slot as it stands. Returns the unsubscribe. */
  listen(listener: LocalnetListener): () => void;
  /** The localnet's first slot: no block before it. */
  readonly firstSlot: bigint;
  /** The newest slot that reached `commitment`. */
  committedSlot(commitment: ChainCommitment): bigint;
  /** Every account a program owns. */
  programAccounts(program: string): LocalAccount[];
  /** Transactions naming `address`, newest first. */
  signaturesForAddress(address: string, query: SignaturesQuery): SignatureInfo[];
  block(slot: bigint, commitment: ChainCommitment): LocalBlock | BlockUnavailable;
  blockTime(slot: bigint, commitment: ChainCommitment): number | BlockUnavailable;
  blocks(start: bigint, end: bigint, commitment: ChainCommitment): bigint[];
  epochSchedule(): {
    slotsPerEpoch: bigint;
    leaderScheduleSlotOffset: bigint;
    warmup: boolean;
    firstNormalEpoch: bigint;
    firstNormalSlot: bigint;
  };
  transactionCount(): bigint;
  supply(): { total: bigint; circulating: bigint };
  largestAccounts(): { address: string; lamports: bigint }[];
  performanceSamples(limit: number): PerformanceSample[];
}

/** The slot each commitment level reached when the clock stands at `slot`. */
function reachedAt(state: LocalnetState) {
  const floor = (slot: bigint) => (slot < 0n ? 0n : slot);
  return {
    processed: state.clock.slot,
    confirmed: floor(committedSlot(state, 'confirmed')),
    finalized: floor(committedSlot(state, 'finalized')),
  };
}

/** web3.js's rule for the websocket of an RPC URL: same host, port + 1 when a port is given. */
function websocketUrlOf(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (url.port !== '') url.port = String(Number(url.port) + 1);
  return url.toString().replace(/\/$/, '');
}

/** Puts a replayed journal into the runtime and the ledger, and resumes above every slot it shows. */
function resume(state: LocalnetState, replayed: Replayed): void {
  for (const [address, account] of replayed.accounts) {
    if (!account) continue;
    const data = Buffer.from(account[4], 'base64');
    state.svm.write(address, BigInt(account[1]), account[2], account[3] === 1, new Uint8Array(data));
    state.history.knownAccounts.add(address);
  }
  const { firstSlot } = state.clock;
  // Above every slot the journal shows (Math.max does not take bigints).
  let resumeAt = firstSlot + 1n;
  if (replayed.maxSlot >= resumeAt) resumeAt = replayed.maxSlot + 1n;
  for (const { id, entry, fee } of replayed.transactions) state.ledger.record(id, entry, resumeAt, fee);
  moveTo(state, resumeAt);
  state.ledger.trim(state.clock.slot);
  // Lookup tables are back in the runtime now, so v0 transactions' loaded keys resolve.
  for (const { id, entry, message, blockTime } of replayed.transactions) {
    if (!state.ledger.has(id)) continue;
    const loaded = state.svm.loadedAddresses(message);
    const keys = [...message.accountKeys, ...loaded.writable, ...loaded.readonly];
    indexLanded(
      state,
      { id, slot: entry.slot, message, keys, writable: [], err: entry.err, logs: [], blockTime },
      keys.map(encodeBase58),
    );
  }
}

/**
 * The chain's state at start: replayed from the state directory when there is one (compacted when
 * its journal has grown), from genesis otherwise.
 */
function openState(settings: Settings): LocalnetState {
  const keys = genesisKeys(settings.seed);
  const svm = new Svm();
  const clock = new SlotClock(settings.validity, svm.initialSlot());
  const history = new History();
  const journal = settings.stateDir ? LocalnetJournal.open(settings.stateDir) : undefined;
  let replayed: Replayed | undefined;
  try {
    replayed = journal ? replay(journal, keys.genesisHash, clock.issued, history) : undefined;
  } catch (cause) {
    journal?.close();
    throw cause;
  }
  if (replayed) clock.firstSlot = replayed.firstSlot ?? clock.slot;
  const ledger = new Ledger(
    {
      confirmationDepthSlots: settings.confirmationDepth,
      finalityDepthSlots: settings.finalityDepth,
      historySize: settings.historySize,
    },
    clock.firstSlot,
  );
  const state: LocalnetState = {
    settings,
    svm,
    clock,
    ledger,
    disk: new Disk(journal, settings.validity),
    history,
    keys,
    currencies: currenciesOf(keys, settings.projectTicker),
    listeners: new Listeners(),
    timeline: new SlotTimeline(clock.slot, 0n, settings.slotIntervalMs),
  };
  if (!replayed) createGenesis(state);
  else {
    resume(state, replayed);
    if (journal && journal.bytes > settings.compactJournalBytes) compact(state);
  }
  checkMints(state);
  state.timeline.mark(clock.slot, history.transactionCount);
  return state;
}

/**
 * An in-process Solana localnet on LiteSVM: real programs (System, SPL Token, Token-2022, ATA)
 * executing real transactions, with slots advancing on a timer so statuses move
 * processed -> confirmed -> finalized, a real blockhash validity window, and (with `dataDir`)
 * state that survives restarts, even `kill -9`.
 */
export async function createLocalnet(config: LocalnetConfig = {}): Promise<Localnet> {
  const settings = resolveSettings(config);
  const state = openState(settings);
  const { svm, clock, ledger, history, keys } = state;

  let rpcUrl = settings.rpcUrl;
  let wsUrl: string | undefined;
  /** Advances the clock and tells the listeners; false when the slot could not be recorded. */
  const advance = (slots = 1): boolean => {
    const before = clock.slot;
    const moved = tick(state, slots);
    if (clock.slot !== before) {
      state.timeline.mark(clock.slot, history.transactionCount);
      state.listeners.slot(clock.slot, reachedAt(state));
    }
    return moved;
  };
  const timer =
    settings.slotIntervalMs > 0
      ? setInterval(() => {
          if (!advance(1)) clearInterval(timer);
        }, settings.slotIntervalMs)
      : undefined;
  timer?.unref();

  return {
    currencies: state.currencies,
    mintAuthority: keys.authorityKey.toBase58() as PublicKey,
    genesisHash: keys.genesisHash,
    stateDir: settings.stateDir,
    identity: keys.identity,
    get rpcUrl() {
      return rpcUrl;
    },
    get wsUrl() {
      return wsUrl ?? websocketUrlOf(rpcUrl);
    },
    setRpcUrl: (url, ws) => {
      rpcUrl = url;
      wsUrl = ws;
    },
    slot: () => clock.slot,
    tick: (slots) => {
      if (!advance(slots) && timer) clearInterval(timer);
    },
    close: () => {
      if (timer) clearInterval(timer);
      state.disk.close();
    },
    latestBlockhash: () => latestBlockhash(state),
    isBlockhashValid: (blockhash) => clock.validIssue(blockhash) !== undefined,
    sendWire: (wire, options) => sendDurably(state, wire, options?.preflight === true),
    simulateWire: (wire, options) => simulateWire(state, wire, options),
    airdrop: (to, currency, amount) => airdrop(state, to, currency, amount),
    fund: (owner, lamports) => {
      const funded = airdrop(state, owner, state.currencies.native, lamports);
      if (funded.isErr()) throw new Error(`localnet fund failed: ${funded.error.message}`);
      return funded.value;
    },
    account: (address) => svm.account(address),
    lamports: (address) => {
      const bytes = keyBytes(address);
      return bytes ? svm.lamports(bytes) : 0n;
    },
    landed: (signature) => landed(state, signature),
    statuses: (ids) => statuses(state, ids),
    transaction: (signature) => transaction(state, signature),
    tokenHolders: (mint) => tokenHolders(state, mint),
    nftOwner: (mint) => nftHolder(state, mint)?.owner,
    prioritizationFees: (accounts) => ledger.prioritizationFees(accounts, clock.slot),
    minimumBalance: (space) => svm.rentExempt(space),
    epochInfo: () => epochInfo(state),
    feeFor: (message) => feeFor(state, message),

    listen: (listener) => {
      const remove = state.listeners.add(listener);
      listener.onSlot?.(clock.slot, reachedAt(state));
      return remove;
    },
    get firstSlot() {
      return clock.firstSlot;
    },
    committedSlot: (commitment) => committedSlot(state, commitment),
    programAccounts: (program) => programAccounts(state, program),
    signaturesForAddress: (address, query) => signaturesForAddress(state, address, query),
    block: (slot, commitment) => block(state, slot, commitment),
    blockTime: (slot, commitment) => blockUnavailable(state, slot, commitment) ?? blockTimeOf(state, slot),
    blocks: (start, end, commitment) => blocksBetween(state, start, end, commitment),
    epochSchedule: () => {
      // LiteSVM's object holds its fields behind getters, which JSON does not see.
      const { slotsPerEpoch, leaderScheduleSlotOffset, warmup, firstNormalEpoch, firstNormalSlot } =
        svm.epochSchedule();
      return { slotsPerEpoch, leaderScheduleSlotOffset, warmup, firstNormalEpoch, firstNormalSlot };
    },
    transactionCount: () => history.transactionCount,
    supply: () => supply(state),
    largestAccounts: () => largestAccounts(state),
    performanceSamples: (limit) => state.timeline.performanceSamples(limit),
  };
}
