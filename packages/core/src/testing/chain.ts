import { err, errAsync, ok, okAsync, type Result, type ResultAsync } from 'neverthrow';
import { encodeBase58 } from '../domain/base58.js';
import type { Currencies, Currency } from '../domain/currency.js';
import { U64_MAX } from '../domain/money.js';
import { isPublicKey, type PublicKey, type Signature } from '../domain/public-key.js';
import { type DomainError, domainError } from '../errors.js';
import type {
  ChainCommitment,
  ChainPort,
  ChainStatus,
  ClusterInfo,
  PrioritizationFee,
} from '../ports/chain.js';
import { currencyKey, fakeBytes, fakeChainCurrencies, fakeKey } from './fake-chain/bytes.js';
import { FakeLedger } from './fake-chain/ledger.js';
import { parseWire } from './fake-chain/message.js';
import { prepareMessage } from './fake-chain/prepare.js';

export { fakeChainCurrencies } from './fake-chain/bytes.js';

export interface FakeChainOptions {
  /** Defaults to SOL, USDC and PROJ with made-up mints. */
  readonly currencies?: Currencies;
  readonly cluster?: ClusterInfo;
  /** Slots after landing until confirmed; default 1. */
  readonly confirmationDepthSlots?: number;
  /** Slots after landing until finalized; default 32. */
  readonly finalityDepthSlots?: number;
  /** Block heights a blockhash stays valid; default 150. */
  readonly blockhashValiditySlots?: number;
  readonly startSlot?: bigint;
}

/**
 * An in-memory ChainPort with the localnet's observable behaviour (fees, dedupe by signature,
 * blockhash expiry, commitment by slot depth) and no Solana library. Its messages are its own
 * JSON, wrapped in the real wire layout (shortvec count, 64-byte signatures, message), so callers
 * sign and assemble exactly as they do against a real chain. Signatures are not verified.
 * Unlike the localnet it charges no rent for new accounts.
 */
export interface FakeChain extends ChainPort {
  readonly currencies: Currencies;
  /** The current slot (= block height). */
  slot(): bigint;
  /** Moves the chain forward `slots` slots (default 1), each with a new blockhash. */
  advance(slots?: number): void;
  /** Adds to a balance directly, with no transaction. */
  credit(owner: PublicKey, currency: Currency, amount: bigint): void;
  /** Credits lamports through a recorded (airdrop) transaction, like the localnet's `fund`. */
  fund(owner: PublicKey, lamports: bigint): Signature;
  /** Records a landed transaction's price for getRecentPrioritizationFees, at the current slot by default. */
  recordPrioritizationFee(fee: bigint, writableAccounts: readonly PublicKey[], slot?: bigint): void;
  /** While set, every call fails with CHAIN_UNAVAILABLE. */
  setUnavailable(unavailable: boolean): void;
  /** How many transactions executed (landed, ok or failed); a duplicate send does not count. */
  executedCount(): number;
}

const PRIORITIZATION_FEE_SLOTS = 150n;

/** The fake chain's state: its settings, the slot it is at, balances, and what has landed. */
interface ChainState {
  readonly currencies: Currencies;
  readonly confirmationDepth: bigint;
  readonly finalityDepth: bigint;
  /** Block heights a blockhash stays valid. */
  readonly validity: bigint;
  readonly genesisSlot: bigint;
  slot: bigint;
  unavailable: boolean;
  nonce: number;
  executed: number;
  mintCount: bigint;
  airdropCount: bigint;
  readonly ledger: FakeLedger;
  readonly landed: Map<string, { slot: bigint; error?: string }>;
  /** Per slot, the lowest price that landed in the block and the lowest per writable account. */
  readonly fees: Map<bigint, { blockMin: bigint; byAccount: Map<string, bigint> }>;
  /** Blockhashes still valid, oldest first, with the slot they were issued at. */
  readonly issued: Map<string, bigint>;
}

const blockhashOf = (at: bigint) => encodeBase58(fakeBytes(32, 0xb1, at));

function recordFee(state: ChainState, at: bigint, price: bigint, accounts: readonly string[]): void {
  let entry = state.fees.get(at);
  if (!entry) {
    entry = { blockMin: price, byAccount: new Map() };
    state.fees.set(at, entry);
  } else if (price < entry.blockMin) {
    entry.blockMin = price;
  }
  for (const account of accounts) {
    const previous = entry.byAccount.get(account);
    if (previous === undefined || price < previous) entry.byAccount.set(account, price);
  }
}

function land(
  state: ChainState,
  id: string,
  error: string | undefined,
  price: bigint,
  writable: readonly string[],
): void {
  state.executed += 1;
  state.landed.set(id, error === undefined ? { slot: state.slot } : { slot: state.slot, error });
  if (error === undefined) recordFee(state, state.slot, price, writable);
}

function prepare(
  state: ChainState,
  intent: Parameters<ChainPort['prepare']>[0],
  opts: Parameters<ChainPort['prepare']>[1],
) {
  return prepareMessage(
    {
      ledger: state.ledger,
      native: state.currencies.native,
      blockhash: blockhashOf(state.slot),
      lastValidBlockHeight: state.slot + state.validity,
      nextNonce: () => ++state.nonce,
      nextMint: () => fakeKey(0x4d, ++state.mintCount),
    },
    intent,
    opts,
  );
}

/** Lands a signed transaction once: a duplicate answers its id, an expired blockhash is refused. */
function send(state: ChainState, wire: Uint8Array): Result<Signature, DomainError> {
  return parseWire(wire).andThen(({ id, message }) => {
    if (state.landed.has(id)) return ok(id as Signature);
    const issuedAt = state.issued.get(message.blockhash);
    if (issuedAt === undefined || state.slot > issuedAt + state.validity) {
      return err(domainError('INVALID_INPUT', 'blockhash not found or expired'));
    }
    const fee = BigInt(message.feeLamports);
    const nativeKey = currencyKey(state.currencies.native);
    if (state.ledger.balanceOf(message.feePayer, nativeKey) < fee) {
      return err(domainError('INSUFFICIENT_FUNDS', 'the fee payer cannot pay the transaction fee'));
    }
    state.ledger.add(message.feePayer, nativeKey, -fee);
    const error = state.ledger.execute(message);
    land(state, id, error, BigInt(message.computeUnitPrice), message.writableAccounts);
    return ok(id as Signature);
  });
}

function airdrop(
  state: ChainState,
  to: PublicKey,
  currency: Currency,
  amount: bigint,
): Result<Signature, DomainError> {
  if (!isPublicKey(to)) return err(domainError('INVALID_PUBLIC_KEY', 'to must be a base58 public key'));
  if (typeof amount !== 'bigint' || amount <= 0n || amount > U64_MAX) {
    return err(domainError('INVALID_AMOUNT', 'amount must be greater than zero and fit u64'));
  }
  state.ledger.add(to, currencyKey(currency), amount);
  const id = encodeBase58(fakeBytes(64, 0xa1, ++state.airdropCount));
  land(state, id, undefined, 0n, [to]);
  return ok(id as Signature);
}

/** A landed transaction's commitment follows from how many slots ago it landed. */
function status(state: ChainState, id: string): ChainStatus | null {
  const entry = state.landed.get(id);
  if (!entry) return null;
  const depth = state.slot - entry.slot;
  const commitment: ChainCommitment =
    depth >= state.finalityDepth ? 'finalized' : depth >= state.confirmationDepth ? 'confirmed' : 'processed';
  return entry.error === undefined
    ? { commitment, slot: entry.slot }
    : { commitment, slot: entry.slot, error: entry.error };
}

/** Per slot of the last 150, the price a transaction writing `accounts` had to beat. */
function prioritizationFees(state: ChainState, accounts: readonly string[]): PrioritizationFee[] {
  const out: PrioritizationFee[] = [];
  const windowStart = state.slot - PRIORITIZATION_FEE_SLOTS + 1n;
  for (let at = windowStart < state.genesisSlot ? state.genesisSlot : windowStart; at <= state.slot; at++) {
    const entry = state.fees.get(at);
    let fee = entry?.blockMin ?? 0n;
    for (const account of accounts) {
      const accountFee = entry?.byAccount.get(account);
      if (accountFee !== undefined && accountFee > fee) fee = accountFee;
    }
    out.push({ slot: at, fee });
  }
  return out;
}

/** Each slot issues a new blockhash; blockhashes and fees older than their window are dropped. */
function advance(state: ChainState, slots: number): void {
  for (let i = 0; i < slots; i++) {
    state.slot += 1n;
    state.issued.set(blockhashOf(state.slot), state.slot);
  }
  for (const [hash, at] of state.issued) {
    if (at + state.validity >= state.slot) break;
    state.issued.delete(hash);
  }
  for (const at of state.fees.keys()) if (at <= state.slot - PRIORITIZATION_FEE_SLOTS) state.fees.delete(at);
}

export function createFakeChain(options: FakeChainOptions = {}): FakeChain {
  const cluster: ClusterInfo = options.cluster ?? { name: 'localnet', rpcUrl: 'http://127.0.0.1:8899' };
  const genesisSlot = options.startSlot ?? 1_000n;
  const state: ChainState = {
    currencies: options.currencies ?? fakeChainCurrencies(),
    confirmationDepth: BigInt(options.confirmationDepthSlots ?? 1),
    finalityDepth: BigInt(options.finalityDepthSlots ?? 32),
    validity: BigInt(options.blockhashValiditySlots ?? 150),
    genesisSlot,
    slot: genesisSlot,
    unavailable: false,
    nonce: 0,
    executed: 0,
    mintCount: 0n,
    airdropCount: 0n,
    ledger: new FakeLedger(),
    landed: new Map(),
    fees: new Map(),
    issued: new Map([[blockhashOf(genesisSlot), genesisSlot]]),
  };
  const { currencies, ledger } = state;

  const guard = <T>(body: () => Result<T, DomainError>): ResultAsync<T, DomainError> => {
    if (state.unavailable) return errAsync(domainError('CHAIN_UNAVAILABLE', 'the chain is unavailable'));
    const outcome = body();
    return outcome.isOk() ? okAsync(outcome.value) : errAsync(outcome.error);
  };

  return {
    cluster,
    currencies,
    slot: () => state.slot,
    advance: (slots = 1) => advance(state, slots),
    credit(owner, currency, amount) {
      ledger.add(owner, currencyKey(currency), amount);
    },
    fund(owner, lamports) {
      const landedAirdrop = airdrop(state, owner, currencies.native, lamports);
      if (landedAirdrop.isErr()) throw new Error(landedAirdrop.error.message);
      return landedAirdrop.value;
    },
    recordPrioritizationFee(fee, writableAccounts, at = state.slot) {
      recordFee(state, at, fee, writableAccounts);
    },
    setUnavailable(value) {
      state.unavailable = value;
    },
    executedCount: () => state.executed,
    prepare: (intent, opts) => guard(() => prepare(state, intent, opts)),
    send: (wire) => guard(() => send(state, wire)),
    getStatuses: (ids) =>
      guard(() =>
        ids.length > 256
          ? err(domainError('INVALID_INPUT', 'at most 256 statuses per request'))
          : ok(ids.map((id) => status(state, id))),
      ),
    getBlockHeight: () => guard(() => ok(state.slot)),
    getBalance: (owner, currency) =>
      guard(() =>
        isPublicKey(owner)
          ? ok(ledger.balanceOf(owner, currencyKey(currency)))
          : err(domainError('INVALID_PUBLIC_KEY', 'owner must be a base58 public key')),
      ),
    getRecentPrioritizationFees: (accounts) =>
      guard(() =>
        accounts.length > 128
          ? err(domainError('INVALID_INPUT', 'at most 128 accounts'))
          : ok(prioritizationFees(state, accounts)),
      ),
    getNft: (mint) => guard(() => ok(ledger.nfts.get(mint) ?? null)),
    airdrop: (to, currency, amount) => guard(() => airdrop(state, to, currency, amount)),
  };
}
