import { err, errAsync, ok, okAsync, type Result, type ResultAsync } from 'neverthrow';
import { encodeBase58 } from '../domain/base58.js';
import { Currencies, type Currency } from '../domain/currency.js';
import { U64_MAX } from '../domain/money.js';
import { isPublicKey, type PublicKey, type Signature } from '../domain/public-key.js';
import { type DomainError, domainError } from '../errors.js';
import type {
  ChainCommitment,
  ChainIntent,
  ChainPort,
  ChainStatus,
  ClusterInfo,
  NftMetadata,
  PreparedTransaction,
  PrepareOptions,
  PrioritizationFee,
} from '../ports/chain.js';

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

const LAMPORTS_PER_SIGNATURE = 5_000n;
const PRIORITIZATION_FEE_SLOTS = 150n;
const MESSAGE_TAG = 'fake-chain/1';
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' as PublicKey;

// Fixed compute costs, in the range the localnet measures for the same intents.
const COMPUTE_UNITS = { native: 1_450, token: 34_000, mint_nft: 95_000 } as const;

/** 32 bytes, recognisable in a debugger: a tag byte, a counter, then filler. */
function fakeBytes(length: number, tag: number, n: bigint): Uint8Array {
  const bytes = new Uint8Array(length).fill(tag);
  let rest = n;
  for (let i = 1; i < 9; i++) {
    bytes[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return bytes;
}

function fakeKey(tag: number, n: bigint): PublicKey {
  return encodeBase58(fakeBytes(32, tag, n)) as PublicKey;
}

export function fakeChainCurrencies(): Currencies {
  return new Currencies(
    { code: 'SOL', kind: 'native', decimals: 9 },
    { code: 'USDC', kind: 'stable', decimals: 6, mint: fakeKey(0xc1, 1n), tokenProgram: TOKEN_PROGRAM },
    { code: 'PROJ', kind: 'project', decimals: 9, mint: fakeKey(0xc1, 2n), tokenProgram: TOKEN_PROGRAM },
  );
}

interface WireIntent {
  readonly kind: ChainIntent['kind'];
  readonly currencyKey?: string;
  readonly from?: string;
  readonly to?: string;
  readonly amount?: string;
  readonly authority?: string;
  readonly owner?: string;
  readonly name?: string;
  readonly symbol?: string;
  readonly uri?: string;
  readonly legs?: readonly { currencyKey: string; from: string; to: string; amount: string }[];
}

interface FakeMessage {
  readonly tag: typeof MESSAGE_TAG;
  readonly nonce: number;
  readonly blockhash: string;
  readonly feePayer: string;
  readonly signers: readonly string[];
  readonly computeUnitPrice: string;
  readonly computeUnitLimit: number;
  readonly feeLamports: string;
  readonly writableAccounts: readonly string[];
  readonly mint?: string;
  readonly intent: WireIntent;
}

function decodeShortVec(bytes: Uint8Array): { value: number; size: number } | undefined {
  let value = 0;
  for (let i = 0; i < 3 && i < bytes.length; i++) {
    const byte = bytes[i]!;
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) return { value, size: i + 1 };
  }
  return undefined;
}

function currencyKey(currency: Currency): string {
  return currency.mint ?? `native:${currency.code}`;
}

function priorityFee(price: bigint, limit: number): bigint {
  return (price * BigInt(limit) + 999_999n) / 1_000_000n;
}

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
  const balances = new Map<string, bigint>();
  const landed = new Map<string, { slot: bigint; error?: string }>();
  const fees = new Map<bigint, { blockMin: bigint; byAccount: Map<string, bigint> }>();
  const nfts = new Map<string, NftMetadata>();
  const blockhashOf = (at: bigint) => encodeBase58(fakeBytes(32, 0xb1, at));
  const issued = new Map<string, bigint>([[blockhashOf(slot), slot]]);

  const balanceKey = (owner: string, key: string) => `${owner}|${key}`;
  const balanceOf = (owner: string, key: string) => balances.get(balanceKey(owner, key)) ?? 0n;
  const add = (owner: string, key: string, delta: bigint) =>
    balances.set(balanceKey(owner, key), balanceOf(owner, key) + delta);
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

  const checkKeys = (fields: Record<string, unknown>): Result<void, DomainError> => {
    for (const [field, value] of Object.entries(fields)) {
      if (!isPublicKey(value))
        return err(domainError('INVALID_PUBLIC_KEY', `${field} must be a base58 public key`));
    }
    return ok(undefined);
  };

  const insufficient = (who: string, code: string) =>
    domainError('INSUFFICIENT_FUNDS', `${who} does not hold enough ${code}`);

  const prepare = (intent: ChainIntent, opts: PrepareOptions): Result<PreparedTransaction, DomainError> => {
    const price = opts.computeUnitPrice;
    if (typeof price !== 'bigint' || price < 0n || price > U64_MAX) {
      return err(domainError('INVALID_INPUT', 'computeUnitPrice must be a non-negative u64'));
    }
    const feePayer = opts.feePayer;
    const n = ++nonce;
    let wireIntent: WireIntent;
    let signers: string[];
    let writable: string[];
    let limit: number;
    let mint: PublicKey | undefined;
    let spendFromFeePayer = 0n;
    if (intent.kind === 'transfer') {
      const keys = checkKeys({ feePayer, from: intent.from, to: intent.to });
      if (keys.isErr()) return err(keys.error);
      if (typeof intent.amount !== 'bigint' || intent.amount <= 0n || intent.amount > U64_MAX) {
        return err(domainError('INVALID_AMOUNT', 'amount must be greater than zero and fit u64'));
      }
      const key = currencyKey(intent.currency);
      if (balanceOf(intent.from, key) < intent.amount)
        return err(insufficient(intent.from, intent.currency.code));
      if (key === nativeKey && intent.from === feePayer) spendFromFeePayer = intent.amount;
      wireIntent = {
        kind: 'transfer',
        currencyKey: key,
        from: intent.from,
        to: intent.to,
        amount: intent.amount.toString(),
      };
      signers = intent.from === feePayer ? [feePayer] : [feePayer, intent.from];
      writable = [...new Set([feePayer, intent.from, intent.to])];
      limit = intent.currency.mint === undefined ? COMPUTE_UNITS.native : COMPUTE_UNITS.token;
    } else if (intent.kind === 'transfers') {
      if (!Array.isArray(intent.legs) || intent.legs.length === 0 || intent.legs.length > 8) {
        return err(domainError('INVALID_INPUT', 'a transfers intent has 1 to 8 legs'));
      }
      // Legs run in order; a later leg may spend what an earlier one delivered, as on chain.
      const running = new Map<string, bigint>();
      const held = (owner: string, key: string) =>
        running.get(balanceKey(owner, key)) ?? balanceOf(owner, key);
      const legs: { currencyKey: string; from: string; to: string; amount: string }[] = [];
      for (const [i, leg] of intent.legs.entries()) {
        const keys = checkKeys({ feePayer, [`legs[${i}].from`]: leg.from, [`legs[${i}].to`]: leg.to });
        if (keys.isErr()) return err(keys.error);
        if (typeof leg.amount !== 'bigint' || leg.amount <= 0n || leg.amount > U64_MAX) {
          return err(domainError('INVALID_AMOUNT', 'amount must be greater than zero and fit u64'));
        }
        const key = currencyKey(leg.currency);
        if (held(leg.from, key) < leg.amount) return err(insufficient(leg.from, leg.currency.code));
        running.set(balanceKey(leg.from, key), held(leg.from, key) - leg.amount);
        running.set(balanceKey(leg.to, key), held(leg.to, key) + leg.amount);
        if (key === nativeKey && leg.from === feePayer) spendFromFeePayer += leg.amount;
        legs.push({ currencyKey: key, from: leg.from, to: leg.to, amount: leg.amount.toString() });
      }
      wireIntent = { kind: 'transfers', legs };
      signers = [...new Set([feePayer, ...intent.legs.map((leg) => leg.from)])];
      writable = [...new Set([feePayer, ...intent.legs.flatMap((leg) => [leg.from, leg.to])])];
      limit = intent.legs.reduce(
        (units, leg) =>
          units + (leg.currency.mint === undefined ? COMPUTE_UNITS.native : COMPUTE_UNITS.token),
        0,
      );
    } else if (intent.kind === 'mint_nft') {
      const keys = checkKeys({ feePayer, authority: intent.authority, owner: intent.owner });
      if (keys.isErr()) return err(keys.error);
      for (const field of ['name', 'symbol', 'uri'] as const) {
        if (typeof intent[field] !== 'string')
          return err(domainError('INVALID_INPUT', `${field} must be a string`));
      }
      mint = fakeKey(0x4d, ++mintCount);
      wireIntent = {
        kind: 'mint_nft',
        authority: intent.authority,
        owner: intent.owner,
        name: intent.name,
        symbol: intent.symbol,
        uri: intent.uri,
      };
      signers = [...new Set([feePayer, intent.authority]), mint];
      writable = [...new Set([feePayer, mint, intent.owner])];
      limit = COMPUTE_UNITS.mint_nft;
    } else {
      return err(domainError('INVALID_INPUT', 'unknown intent kind'));
    }
    const feeLamports = LAMPORTS_PER_SIGNATURE * BigInt(signers.length) + priorityFee(price, limit);
    if (balanceOf(feePayer, nativeKey) < feeLamports + spendFromFeePayer) {
      return err(insufficient(`fee payer ${feePayer}`, currencies.native.code));
    }
    const blockhash = blockhashOf(slot);
    const message: FakeMessage = {
      tag: MESSAGE_TAG,
      nonce: n,
      blockhash,
      feePayer,
      signers,
      computeUnitPrice: price.toString(),
      computeUnitLimit: limit,
      feeLamports: feeLamports.toString(),
      writableAccounts: writable,
      ...(mint ? { mint } : {}),
      intent: wireIntent,
    };
    return ok({
      message: new TextEncoder().encode(JSON.stringify(message)),
      signers: signers as PublicKey[],
      presigned: mint ? { [mint]: fakeBytes(64, 0x5e, BigInt(n)) } : {},
      blockhash,
      lastValidBlockHeight: slot + validity,
      computeUnitLimit: limit,
      computeUnitPrice: price,
      feeLamports,
      writableAccounts: writable as PublicKey[],
      ...(mint ? { mint } : {}),
    });
  };

  const parseWire = (wire: Uint8Array): Result<{ id: string; message: FakeMessage }, DomainError> => {
    const malformed = (why: string) => err(domainError('INVALID_INPUT', `malformed transaction: ${why}`));
    if (!(wire instanceof Uint8Array)) return malformed('not bytes');
    const count = decodeShortVec(wire);
    if (!count || count.value === 0) return malformed('no signatures');
    const messageStart = count.size + 64 * count.value;
    if (wire.length <= messageStart) return malformed('truncated');
    let message: FakeMessage;
    try {
      message = JSON.parse(
        new TextDecoder('utf-8', { fatal: true }).decode(wire.subarray(messageStart)),
      ) as FakeMessage;
    } catch {
      return malformed('not a message of this chain');
    }
    if (message?.tag !== MESSAGE_TAG || !Array.isArray(message.signers))
      return malformed('not a message of this chain');
    if (message.signers.length !== count.value) {
      return malformed(`${count.value} signatures for ${message.signers.length} signers`);
    }
    for (let i = 0; i < count.value; i++) {
      const signature = wire.subarray(count.size + 64 * i, count.size + 64 * (i + 1));
      if (signature.every((b) => b === 0))
        return err(domainError('INVALID_INPUT', 'transaction is missing a signature'));
    }
    return ok({ id: encodeBase58(wire.subarray(count.size, count.size + 64)), message });
  };

  const execute = (message: FakeMessage): string | undefined => {
    const intent = message.intent;
    if (intent.kind === 'transfers') {
      // All or nothing: check every leg against the balances as the earlier legs leave them.
      const after = new Map<string, bigint>();
      const held = (owner: string, key: string) => after.get(balanceKey(owner, key)) ?? balanceOf(owner, key);
      for (const leg of intent.legs ?? []) {
        const amount = BigInt(leg.amount);
        if (held(leg.from, leg.currencyKey) < amount) return 'insufficient funds';
        after.set(balanceKey(leg.from, leg.currencyKey), held(leg.from, leg.currencyKey) - amount);
        after.set(balanceKey(leg.to, leg.currencyKey), held(leg.to, leg.currencyKey) + amount);
      }
      for (const [k, v] of after) balances.set(k, v);
      return undefined;
    }
    if (intent.kind === 'transfer') {
      const amount = BigInt(intent.amount!);
      if (balanceOf(intent.from!, intent.currencyKey!) < amount) return 'insufficient funds';
      add(intent.from!, intent.currencyKey!, -amount);
      add(intent.to!, intent.currencyKey!, amount);
      return undefined;
    }
    const mint = message.mint as PublicKey;
    if (nfts.has(mint)) return 'mint account already in use';
    nfts.set(mint, {
      mint,
      name: intent.name!,
      symbol: intent.symbol!,
      uri: intent.uri!,
      updateAuthority: intent.authority as PublicKey,
      supply: 1n,
      decimals: 0,
      owner: intent.owner as PublicKey,
    });
    return undefined;
  };

  const send = (wire: Uint8Array): Result<Signature, DomainError> =>
    parseWire(wire).andThen(({ id, message }) => {
      if (landed.has(id)) return ok(id as Signature);
      const issuedAt = issued.get(message.blockhash);
      if (issuedAt === undefined || slot > issuedAt + validity) {
        return err(domainError('INVALID_INPUT', 'blockhash not found or expired'));
      }
      const fee = BigInt(message.feeLamports);
      if (balanceOf(message.feePayer, nativeKey) < fee) {
        return err(domainError('INSUFFICIENT_FUNDS', 'the fee payer cannot pay the transaction fee'));
      }
      add(message.feePayer, nativeKey, -fee);
      const error = execute(message);
      land(id, error, BigInt(message.computeUnitPrice), message.writableAccounts);
      return ok(id as Signature);
    });

  const airdrop = (to: PublicKey, currency: Currency, amount: bigint): Result<Signature, DomainError> => {
    if (!isPublicKey(to)) return err(domainError('INVALID_PUBLIC_KEY', 'to must be a base58 public key'));
    if (typeof amount !== 'bigint' || amount <= 0n || amount > U64_MAX) {
      return err(domainError('INVALID_AMOUNT', 'amount must be greater than zero and fit u64'));
    }
    add(to, currencyKey(currency), amount);
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
      add(owner, currencyKey(currency), amount);
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
          ? ok(balanceOf(owner, currencyKey(currency)))
          : err(domainError('INVALID_PUBLIC_KEY', 'owner must be a base58 public key')),
      ),
    getRecentPrioritizationFees: (accounts) =>
      guard(() =>
        accounts.length > 128
          ? err(domainError('INVALID_INPUT', 'at most 128 accounts'))
          : ok(prioritizationFees(accounts)),
      ),
    getNft: (mint) => guard(() => ok(nfts.get(mint) ?? null)),
    airdrop: (to, currency, amount) => guard(() => airdrop(to, currency, amount)),
  };
}
