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

export function createFakeChain(options: FakeChainOptions = {}): FakeChain {
  const currencies = options.currencies ?? fakeChainCurrencies();
  const cluster: ClusterInfo = options.cluster ?? { name: 'localnet', rpcUrl: 'http://127.0.0.1:8899' };
  const confirmationDepth = BigInt(options.confirmationDepthSlots ?? 1);
  const finalityDepth = BigInt(options.finalityDepthSlots ?? 32);
  const validity = BigInt(options.blockhashValiditySlots ?? 150);
  const genesisSlot = options.startSlot ?? 1_000n;

  let slot = genesisSlot;
  let unavailable = false;
  let nonce = 0;
  let executed = 0;
  let mintCount = 0n;
  let airdropCount = 0n;
  const ledger = new FakeLedger();
  const landed = new Map<string, { slot: bigint; error?: string }>();
  const fees = new Map<bigint, { blockMin: bigint; byAccount: Map<string, bigint> }>();
  const blockhashOf = (at: bigint) => encodeBase58(fakeBytes(32, 0xb1, at));
  const issued = new Map<string, bigint>([[blockhashOf(slot), slot]]);
  const nativeKey = currencyKey(currencies.native);

  const guard = <T>(body: () => Result<T, DomainError>): ResultAsync<T, DomainError> => {
    if (unavailable) return errAsync(domainError('CHAIN_UNAVAILABLE', 'the chain is unavailable'));
    const outcome = body();
    return outcome.isOk() ? okAsync(outcome.value) : errAsync(outcome.error);
  };

  const recordFee = (at: bigint, price: bigint, accounts: readonly string[]) => {
    let entry = fees.get(at);
    if (!entry) {
      entry = { blockMin: price, byAccount: new Map() };
      fees.set(at, entry);
    } else if (price < entry.blockMin) {
      entry.blockMin = price;
    }
    for (const account of accounts) {
      const previous = entry.byAccount.get(account);
      if (previous === undefined || price < previous) entry.byAccount.set(account, price);
    }
  };

  const land = (id: string, error: string | undefined, price: bigint, writable: readonly string[]) => {
    executed += 1;
    landed.set(id, error === undefined ? { slot } : { slot, error });
    if (error === undefined) recordFee(slot, price, writable);
  };

  const prepare = (intent: Parameters<ChainPort['prepare']>[0], opts: Parameters<ChainPort['prepare']>[1]) =>
    prepareMessage(
      {
        ledger,
        native: currencies.native,
        blockhash: blockhashOf(slot),
        lastValidBlockHeight: slot + validity,
        nextNonce: () => ++nonce,
        nextMint: () => fakeKey(0x4d, ++mintCount),
      },
      intent,
      opts,
    );

  const send = (wire: Uint8Array): Result<Signature, DomainError> =>
    parseWire(wire).andThen(({ id, message }) => {
      if (landed.has(id)) return ok(id as Signature);
      const issuedAt = issued.get(message.blockhash);
      if (issuedAt === undefined || slot > issuedAt + validity) {
        return err(domainError('INVALID_INPUT', 'blockhash not found or expired'));
      }
      const fee = BigInt(message.feeLamports);
      if (ledger.balanceOf(message.feePayer, nativeKey) < fee) {
        return err(domainError('INSUFFICIENT_FUNDS', 'the fee payer cannot pay the transaction fee'));
      }
      ledger.add(message.feePayer, nativeKey, -fee);
      const error = ledger.execute(message);
      land(id, error, BigInt(message.computeUnitPrice), message.writableAccounts);
      return ok(id as Signature);
    });

  const airdrop = (to: PublicKey, currency: Currency, amount: bigint): Result<Signature, DomainError> => {
    if (!isPublicKey(to)) return err(domainError('INVALID_PUBLIC_KEY', 'to must be a base58 public key'));
    if (typeof amount !== 'bigint' || amount <= 0n || amount > U64_MAX) {
      return err(domainError('INVALID_AMOUNT', 'amount must be greater than zero and fit u64'));
    }
    ledger.add(to, currencyKey(currency), amount);
    const id = encodeBase58(fakeBytes(64, 0xa1, ++airdropCount));
    land(id, undefined, 0n, [to]);
    return ok(id as Signature);
  };

  const status = (id: string): ChainStatus | null => {
    const entry = landed.get(id);
    if (!entry) return null;
    const depth = slot - entry.slot;
    const commitment: ChainCommitment =
      depth >= finalityDepth ? 'finalized' : depth >= confirmationDepth ? 'confirmed' : 'processed';
    return entry.error === undefined
      ? { commitment, slot: entry.slot }
      : { commitment, slot: entry.slot, error: entry.error };
  };

  const prioritizationFees = (accounts: readonly string[]): PrioritizationFee[] => {
    const out: PrioritizationFee[] = [];
    const windowStart = slot - PRIORITIZATION_FEE_SLOTS + 1n;
    for (let at = windowStart < genesisSlot ? genesisSlot : windowStart; at <= slot; at++) {
      const entry = fees.get(at);
      let fee = entry?.blockMin ?? 0n;
      for (const account of accounts) {
        const accountFee = entry?.byAccount.get(account);
        if (accountFee !== undefined && accountFee > fee) fee = accountFee;
      }
      out.push({ slot: at, fee });
    }
    return out;
  };

  return {
    cluster,
    currencies,
    slot: () => slot,
    advance(slots = 1) {
      for (let i = 0; i < slots; i++) {
        slot += 1n;
        issued.set(blockhashOf(slot), slot);
      }
      for (const [hash, at] of issued) {
        if (at + validity >= slot) break;
        issued.delete(hash);
      }
      for (const at of fees.keys()) if (at <= slot - PRIORITIZATION_FEE_SLOTS) fees.delete(at);
    },
    credit(owner, currency, amount) {
      ledger.add(owner, currencyKey(currency), amount);
    },
    fund(owner, lamports) {
      const landedAirdrop = airdrop(owner, currencies.native, lamports);
      if (landedAirdrop.isErr()) throw new Error(landedAirdrop.error.message);
      return landedAirdrop.value;
    },
    recordPrioritizationFee(fee, writableAccounts, at = slot) {
      recordFee(at, fee, writableAccounts);
    },
    setUnavailable(value) {
      unavailable = value;
    },
    executedCount: () => executed,
    prepare: (intent, opts) => guard(() => prepare(intent, opts)),
    send: (wire) => guard(() => send(wire)),
    getStatuses: (ids) =>
      guard(() =>
        ids.length > 256
          ? err(domainError('INVALID_INPUT', 'at most 256 statuses per request'))
          : ok(ids.map((id) => status(id))),
      ),
    getBlockHeight: () => guard(() => ok(slot)),
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
          : ok(prioritizationFees(accounts)),
      ),
    getNft: (mint) => guard(() => ok(ledger.nfts.get(mint) ?? null)),
    airdrop: (to, currency, amount) => guard(() => airdrop(to, currency, amount)),
  };
}
