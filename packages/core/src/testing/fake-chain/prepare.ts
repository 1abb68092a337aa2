import { err, ok, type Result } from 'neverthrow';
import type { Currency } from '../../domain/currency.js';
import { U64_MAX } from '../../domain/money.js';
import { isPublicKey, type PublicKey } from '../../domain/public-key.js';
import { type DomainError, domainError } from '../../errors.js';
import type {
  ChainIntent,
  MintNftIntent,
  PreparedTransaction,
  PrepareOptions,
  TransferIntent,
  TransfersIntent,
} from '../../ports/chain.js';
import { currencyKey, fakeBytes } from './bytes.js';
import { FakeLedger } from './ledger.js';
import { type FakeMessage, MESSAGE_TAG, type WireIntent } from './message.js';

const LAMPORTS_PER_SIGNATURE = 5_000n;

// Fixed compute costs, in the range the localnet measures for the same intents.
const COMPUTE_UNITS = { native: 1_450, token: 34_000, mint_nft: 95_000 } as const;

/** What `prepare` reads of the chain it prepares for. */
export interface PrepareContext {
  readonly ledger: FakeLedger;
  readonly native: Currency;
  readonly blockhash: string;
  readonly lastValidBlockHeight: bigint;
  nextNonce(): number;
  nextMint(): PublicKey;
}

interface Compiled {
  readonly wireIntent: WireIntent;
  readonly signers: string[];
  readonly writable: string[];
  readonly limit: number;
  readonly mint?: PublicKey;
  /** Native currency the fee payer also spends, beyond the fee. */
  readonly spendFromFeePayer: bigint;
}

function priorityFee(price: bigint, limit: number): bigint {
  return (price * BigInt(limit) + 999_999n) / 1_000_000n;
}

function checkKeys(fields: Record<string, unknown>): Result<void, DomainError> {
  for (const [field, value] of Object.entries(fields)) {
    if (!isPublicKey(value))
      return err(domainError('INVALID_PUBLIC_KEY', `${field} must be a base58 public key`));
  }
  return ok(undefined);
}

const validAmount = (amount: unknown) => typeof amount === 'bigint' && amount > 0n && amount <= U64_MAX;
const badAmount = () => err(domainError('INVALID_AMOUNT', 'amount must be greater than zero and fit u64'));

export const insufficient = (who: string, code: string) =>
  domainError('INSUFFICIENT_FUNDS', `${who} does not hold enough ${code}`);

/** A transfer's message, checked against the ledger: the sender must hold the amount. */
function compileTransfer(
  ctx: PrepareContext,
  intent: TransferIntent,
  feePayer: PublicKey,
): Result<Compiled, DomainError> {
  const { ledger } = ctx;
  const nativeKey = currencyKey(ctx.native);
  const keys = checkKeys({ feePayer, from: intent.from, to: intent.to });
  if (keys.isErr()) return err(keys.error);
  if (!validAmount(intent.amount)) return badAmount();
  const key = currencyKey(intent.currency);
  if (ledger.balanceOf(intent.from, key) < intent.amount)
    return err(insufficient(intent.from, intent.currency.code));
  return ok({
    wireIntent: {
      kind: 'transfer',
      currencyKey: key,
      from: intent.from,
      to: intent.to,
      amount: intent.amount.toString(),
    },
    signers: intent.from === feePayer ? [feePayer] : [feePayer, intent.from],
    writable: [...new Set([feePayer, intent.from, intent.to])],
    limit: intent.currency.mint === undefined ? COMPUTE_UNITS.native : COMPUTE_UNITS.token,
    spendFromFeePayer: key === nativeKey && intent.from === feePayer ? intent.amount : 0n,
  });
}

/** Transfers run in order, each checked against the balances the legs before it leave. */
function compileTransfers(
  ctx: PrepareContext,
  intent: TransfersIntent,
  feePayer: PublicKey,
): Result<Compiled, DomainError> {
  const { ledger } = ctx;
  const nativeKey = currencyKey(ctx.native);
  if (!Array.isArray(intent.legs) || intent.legs.length === 0 || intent.legs.length > 8) {
    return err(domainError('INVALID_INPUT', 'a transfers intent has 1 to 8 legs'));
  }
  // Legs run in order; a later leg may spend what an earlier one delivered, as on chain.
  const running = new Map<string, bigint>();
  const held = (owner: string, key: string) =>
    running.get(FakeLedger.key(owner, key)) ?? ledger.balanceOf(owner, key);
  const legs: { currencyKey: string; from: string; to: string; amount: string }[] = [];
  let spendFromFeePayer = 0n;
  for (const [i, leg] of intent.legs.entries()) {
    const keys = checkKeys({ feePayer, [`legs[${i}].from`]: leg.from, [`legs[${i}].to`]: leg.to });
    if (keys.isErr()) return err(keys.error);
    if (!validAmount(leg.amount)) return badAmount();
    const key = currencyKey(leg.currency);
    if (held(leg.from, key) < leg.amount) return err(insufficient(leg.from, leg.currency.code));
    running.set(FakeLedger.key(leg.from, key), held(leg.from, key) - leg.amount);
    running.set(FakeLedger.key(leg.to, key), held(leg.to, key) + leg.amount);
    if (key === nativeKey && leg.from === feePayer) spendFromFeePayer += leg.amount;
    legs.push({ currencyKey: key, from: leg.from, to: leg.to, amount: leg.amount.toString() });
  }
  return ok({
    wireIntent: { kind: 'transfers', legs },
    signers: [...new Set([feePayer, ...intent.legs.map((leg) => leg.from)])],
    writable: [...new Set([feePayer, ...intent.legs.flatMap((leg) => [leg.from, leg.to])])],
    limit: intent.legs.reduce(
      (units, leg) => units + (leg.currency.mint === undefined ? COMPUTE_UNITS.native : COMPUTE_UNITS.token),
      0,
    ),
    spendFromFeePayer,
  });
}

/** An NFT mint: a fresh mint account, which signs its own creation. */
function compileMint(
  ctx: PrepareContext,
  intent: MintNftIntent,
  feePayer: PublicKey,
): Result<Compiled, DomainError> {
  const keys = checkKeys({ feePayer, authority: intent.authority, owner: intent.owner });
  if (keys.isErr()) return err(keys.error);
  for (const field of ['name', 'symbol', 'uri'] as const) {
    if (typeof intent[field] !== 'string')
      return err(domainError('INVALID_INPUT', `${field} must be a string`));
  }
  const mint = ctx.nextMint();
  return ok({
    wireIntent: {
      kind: 'mint_nft',
      authority: intent.authority,
      owner: intent.owner,
      name: intent.name,
      symbol: intent.symbol,
      uri: intent.uri,
    },
    signers: [...new Set([feePayer, intent.authority, ...(intent.cosigner ? [intent.cosigner] : [])]), mint],
    writable: [...new Set([feePayer, mint, intent.owner])],
    limit: COMPUTE_UNITS.mint_nft,
    mint,
    spendFromFeePayer: 0n,
  });
}

function compile(
  ctx: PrepareContext,
  intent: ChainIntent,
  feePayer: PublicKey,
): Result<Compiled, DomainError> {
  switch (intent.kind) {
    case 'transfer':
      return compileTransfer(ctx, intent, feePayer);
    case 'transfers':
      return compileTransfers(ctx, intent, feePayer);
    case 'mint_nft':
      return compileMint(ctx, intent, feePayer);
  }
  // A new kind of intent fails to compile here until the fake chain can build it; a kind from
  // outside the union (a caller's bad input) is refused as the real adapters refuse it.
  intent satisfies never;
  return err(domainError('INVALID_INPUT', 'unknown intent kind'));
}

/** Checks an intent against the ledger and builds its message, as a simulation would: nothing moves. */
export function prepareMessage(
  ctx: PrepareContext,
  intent: ChainIntent,
  opts: PrepareOptions,
): Result<PreparedTransaction, DomainError> {
  const price = opts.computeUnitPrice;
  if (typeof price !== 'bigint' || price < 0n || price > U64_MAX) {
    return err(domainError('INVALID_INPUT', 'computeUnitPrice must be a non-negative u64'));
  }
  const feePayer = opts.feePayer;
  const n = ctx.nextNonce();
  const compiled = compile(ctx, intent, feePayer);
  if (compiled.isErr()) return err(compiled.error);
  const { wireIntent, signers, writable, limit, mint, spendFromFeePayer } = compiled.value;
  const feeLamports = LAMPORTS_PER_SIGNATURE * BigInt(signers.length) + priorityFee(price, limit);
  if (ctx.ledger.balanceOf(feePayer, currencyKey(ctx.native)) < feeLamports + spendFromFeePayer) {
    return err(insufficient(`fee payer ${feePayer}`, ctx.native.code));
  }
  const message: FakeMessage = {
    tag: MESSAGE_TAG,
    nonce: n,
    blockhash: ctx.blockhash,
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
    blockhash: ctx.blockhash,
    lastValidBlockHeight: ctx.lastValidBlockHeight,
    computeUnitLimit: limit,
    computeUnitPrice: price,
    feeLamports,
    writableAccounts: writable as PublicKey[],
    ...(mint ? { mint } : {}),
  });
}
