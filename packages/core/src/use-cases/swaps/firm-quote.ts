import { err, ok, type Result, type ResultAsync, safeTry } from 'neverthrow';
import { encodeBase58 } from '../../domain/base58.js';
import type { Currency } from '../../domain/currency.js';
import { formatAmount, parseAmount } from '../../domain/money.js';
import { type PublicKey, parsePublicKey, type Signature } from '../../domain/public-key.js';
import { minOutWithSlippage, quoteExactIn } from '../../domain/swap-math.js';
import { poolIdOf, type TokenPair } from '../../domain/token-pair.js';
import { assembleTransaction } from '../../domain/wire.js';
import { type DomainError, domainError } from '../../errors.js';
import type { TransferLeg } from '../../ports/chain.js';
import type {
  NewSwapRequest,
  PoolRecord,
  ReservationPlan,
  SwapHop,
  SwapRequestRecord,
  SwapTransaction,
} from '../../ports/swap-store.js';
import { writableOf } from '../payments/pipeline/prepare.js';
import type { SwapDeps } from './deps.js';

/** The two sides of a pool seen from a trader selling `inputToken`. */
export function poolSides(pool: PoolRecord, inputToken: string) {
  const inIsA = pool.tokenA === inputToken;
  return {
    reserveIn: inIsA ? pool.reserveA : pool.reserveB,
    reserveOut: inIsA ? pool.reserveB : pool.reserveA,
    reservedOut: inIsA ? pool.reservedB : pool.reservedA,
    outputToken: inIsA ? pool.tokenB : pool.tokenA,
  };
}

/** What the pool can still promise: held minus already promised to pending quotes. */
export function availableOut(pool: PoolRecord, inputToken: string): bigint {
  const { reserveOut, reservedOut } = poolSides(pool, inputToken);
  return reserveOut - reservedOut;
}

export interface PricedRoute extends ReservationPlan {
  readonly path: readonly string[];
}

/**
 * Prices `amount` of `path[0]` along `path` (tokens) over `pools`, each hop on the pool's
 * available output (reserve - reserved) so pending firm quotes are honoured first. `vaults` caps
 * each hop by what its vault holds on chain beyond what is already reserved.
 */
export function priceRoute(
  pools: ReadonlyMap<string, PoolRecord>,
  poolIdFor: (a: string, b: string) => string,
  path: readonly string[],
  amount: bigint,
  slippageBps: number,
  vaults?: ReadonlyMap<string, bigint>,
): Result<PricedRoute, DomainError> {
  const hops: SwapHop[] = [];
  let carried = amount;
  let keptPpm = 1_000_000n;
  for (let i = 0; i + 1 < path.length; i++) {
    const inputToken = path[i]!;
    const outputToken = path[i + 1]!;
    const id = poolIdFor(inputToken, outputToken);
    const pool = pools.get(id);
    if (!pool) return err(domainError('INSUFFICIENT_LIQUIDITY', `pool ${id} is not available`));
    const sides = poolSides(pool, inputToken);
    const available = sides.reserveOut - sides.reservedOut;
    const q =
      available > 0n
        ? quoteExactIn({ reserveIn: sides.reserveIn, reserveOut: available, feeBps: pool.feeBps }, carried)
        : undefined;
    if (!q) {
      return err(
        domainError(
          'INSUFFICIENT_LIQUIDITY',
          `pool ${id} cannot honour this swap: the amount is too small or its free ${outputToken} liquidity is exhausted`,
        ),
      );
    }
    const vault = vaults?.get(id);
    if (vault !== undefined && sides.reservedOut + q.outAmount > vault) {
      return err(
        domainError(
          'INSUFFICIENT_LIQUIDITY',
          `pool ${id} cannot promise more ${outputToken} than its vault holds; retry later`,
        ),
      );
    }
    hops.push({
      pool: id,
      inputToken,
      outputToken,
      inAmount: carried,
      outAmount: q.outAmount,
      feeAmount: q.feeAmount,
    });
    keptPpm = (keptPpm * (1_000_000n - q.priceImpactPpm)) / 1_000_000n;
    carried = q.outAmount;
  }
  const outAmount = carried;
  return ok({
    path,
    hops,
    outAmount,
    minOutAmount: minOutWithSlippage(outAmount, slippageBps),
    feeAmount: hops[0]?.feeAmount ?? 0n,
    priceImpactPpm: 1_000_000n - keptPpm,
  });
}

/** The direct path and, through the third currency, the two-hop one. */
export function candidatePaths(deps: Pick<SwapDeps, 'currencies'>, pair: TokenPair): string[][] {
  const mid = deps.currencies.all.find((c) => c !== pair.input && c !== pair.output);
  return [
    [pair.input.code, pair.output.code],
    ...(mid ? [[pair.input.code, mid.code, pair.output.code]] : []),
  ];
}

export function poolIdResolver(deps: Pick<SwapDeps, 'currencies'>) {
  return (a: string, b: string) =>
    poolIdOf(deps.currencies, deps.currencies.byCode(a)!, deps.currencies.byCode(b)!);
}

/** Picks the path that pays the most; the direct pool when it ties. */
export function bestRoute(
  deps: Pick<SwapDeps, 'currencies'>,
  pools: ReadonlyMap<string, PoolRecord>,
  pair: TokenPair,
  amount: bigint,
  slippageBps: number,
): Result<PricedRoute, DomainError> {
  const resolve = poolIdResolver(deps);
  const priced = candidatePaths(deps, pair).map((path) =>
    priceRoute(pools, resolve, path, amount, slippageBps),
  );
  const good = priced.filter((r) => r.isOk()).map((r) => r._unsafeUnwrap());
  if (good.length === 0) return priced[0]!;
  return ok(good.reduce((best, r) => (r.outAmount > best.outAmount ? r : best)));
}

export function loadPools(deps: Pick<SwapDeps, 'swaps'>): ResultAsync<Map<string, PoolRecord>, DomainError> {
  return deps.swaps.listPools().map((pools) => new Map(pools.map((p) => [p.id, p])));
}

/** Parses the common fields of a swap request body. */
export function parseSwapRequest(
  deps: Pick<SwapDeps, 'currencies' | 'swapPolicies'>,
  input: { tokenPair: unknown; amount: unknown; slippageBps?: unknown; account?: unknown },
  caller: { subject: PublicKey },
  parsePair: (value: unknown) => Result<TokenPair, DomainError>,
): Result<{ pair: TokenPair; amount: bigint; slippageBps: number; user: PublicKey }, DomainError> {
  return parsePair(input.tokenPair).andThen((pair) =>
    parseAmount(input.amount, pair.input).andThen((amount) =>
      parseSlippage(deps, input.slippageBps).andThen((slippageBps) =>
        (input.account === undefined ? ok(caller.subject) : parsePublicKey(input.account, 'account'))
          .andThen((user) => (user === caller.subject ? ok(user) : err(notCallersWallet())))
          .map((user) => ({ pair, amount, slippageBps, user })),
      ),
    ),
  );
}

/**
 * A swap is built for the wallet the access token speaks for and no other: a quote for someone
 * else's wallet could only be a way to hold a pool's liquidity with no intention to sign.
 */
function notCallersWallet(): DomainError {
  return domainError(
    'ACCOUNT_NOT_CALLER',
    'account must be the wallet this access token was issued for; leave it out to use that wallet',
  );
}

export function parseSlippage(
  deps: Pick<SwapDeps, 'swapPolicies'>,
  value: unknown,
): Result<number, DomainError> {
  if (value === undefined) return ok(deps.swapPolicies.defaultSlippageBps);
  const max = deps.swapPolicies.maxSlippageBps;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    return err(
      domainError('INVALID_INPUT', `slippageBps must be a whole number of basis points from 0 to ${max}`),
    );
  }
  return ok(value);
}

function legsOf(
  deps: Pick<SwapDeps, 'currencies'>,
  hops: readonly SwapHop[],
  authorities: ReadonlyMap<string, PublicKey>,
  user: PublicKey,
): TransferLeg[] {
  const currency = (code: string) => deps.currencies.byCode(code) as Currency;
  const legs: TransferLeg[] = [];
  hops.forEach((hop, i) => {
    const vault = authorities.get(hop.pool)!;
    // The first hop is paid by the user; a later hop by the previous pool's vault, straight across.
    if (i === 0)
      legs.push({ currency: currency(hop.inputToken), from: user, to: vault, amount: hop.inAmount });
    const next = hops[i + 1];
    const to = next ? authorities.get(next.pool)! : user;
    legs.push({ currency: currency(hop.outputToken), from: vault, to, amount: hop.outAmount });
  });
  return legs;
}

export interface BuiltSwap {
  readonly request: SwapRequestRecord;
  readonly transaction: SwapTransaction;
  /** Wire bytes with the service's signatures and zeroes in the user's slots. */
  readonly wire: Uint8Array;
}

/**
 * Reserves a route's outputs in the pool book and, in the same commit, the one transaction that
 * settles it (user -> first vault, vault -> next vault ..., last vault -> user) with every pool
 * authority's part signed. The fee payer is the first pool's authority (firm quotes) or the user
 * (aggregator routes, as with Jupiter). A failed build reserves nothing.
 */
export function reserveAndBuild(
  deps: Pick<SwapDeps, 'swaps' | 'chain' | 'keystore' | 'fees' | 'currencies' | 'swapPolicies'>,
  args: {
    readonly request: NewSwapRequest;
    readonly path: readonly string[];
    readonly feePayer: 'pool' | 'user';
    /** Refuse when the locked book prices the route below this (an aggregator quote's threshold). */
    readonly minOutAmount?: bigint;
  },
): ResultAsync<BuiltSwap, DomainError> {
  const resolve = poolIdResolver(deps);
  const poolIds = args.path.slice(1).map((code, i) => resolve(args.path[i]!, code));
  return safeTry(async function* () {
    const authorities = new Map<string, PublicKey>();
    const vaults = new Map<string, bigint>();
    // Only the authorities are read before the reservation, which locks and reads the reserves.
    for (const [i, id] of poolIds.entries()) {
      const authority = yield* deps.swaps.poolAuthority(id);
      if (!authority) return err(domainError('INSUFFICIENT_LIQUIDITY', `pool ${id} is not available`));
      if (authority === args.request.user) {
        return err(domainError('INVALID_INPUT', 'account must not be the pool itself'));
      }
      authorities.set(id, authority);
      const out = deps.currencies.byCode(args.path[i + 1]!)!;
      vaults.set(id, yield* deps.chain.getBalance(authority, out));
    }
    const request = yield* deps.swaps.reserve({
      request: args.request,
      poolIds,
      maxOpenPerClient: deps.swapPolicies.maxOpenQuotesPerClient,
      plan: (locked) =>
        priceRoute(
          new Map(locked.map((p) => [p.id, p])),
          resolve,
          args.path,
          args.request.inAmount,
          args.request.slippageBps,
          vaults,
        ).andThen((priced) =>
          args.minOutAmount !== undefined && priced.outAmount < args.minOutAmount
            ? err(
                domainError(
                  'INSUFFICIENT_LIQUIDITY',
                  'the pools moved beyond the quote’s slippage tolerance; request a new quote',
                ),
              )
            : ok(priced),
        ),
      // Built inside the reservation: the quote is stored with its transaction in one commit.
      build: (planned) => buildTransaction(deps, planned, authorities, args.feePayer),
    });
    const transaction = request.transaction!;
    const signatures = transaction.signers.map((s) => transaction.presigned[s] ?? new Uint8Array(64));
    return ok({ request, transaction, wire: assembleTransaction(transaction.message, signatures) });
  });
}

/**
 * The one transaction that settles a planned request, with every pool authority's signature:
 * user -> first vault, vault -> next vault ..., last vault -> user.
 */
function buildTransaction(
  deps: Pick<SwapDeps, 'chain' | 'keystore' | 'fees' | 'currencies' | 'swapPolicies'>,
  request: SwapRequestRecord,
  authorities: ReadonlyMap<string, PublicKey>,
  feePayerKind: 'pool' | 'user',
): ResultAsync<SwapTransaction, DomainError> {
  return safeTry(async function* () {
    const intent = {
      kind: 'transfers' as const,
      legs: legsOf(deps, request.hops, authorities, request.user),
    };
    const feePayer = feePayerKind === 'pool' ? authorities.get(request.hops[0]!.pool)! : request.user;
    const computeUnitPrice = yield* deps.fees.computeUnitPrice(
      deps.swapPolicies.priority,
      writableOf(intent),
    );
    const prepared = yield* deps.chain.prepare(intent, { feePayer, computeUnitPrice });
    const pools = new Set(authorities.values());
    const presigned: Record<string, Uint8Array> = { ...prepared.presigned };
    for (const signer of prepared.signers) {
      if (pools.has(signer) && !presigned[signer]) {
        presigned[signer] = yield* deps.keystore.sign(signer, prepared.message);
      }
    }
    return ok({
      ...(presigned[prepared.signers[0]!]
        ? { transactionId: encodeBase58(presigned[prepared.signers[0]!]!) as Signature }
        : {}),
      message: prepared.message,
      signers: prepared.signers,
      presigned,
      blockhash: prepared.blockhash,
      lastValidBlockHeight: prepared.lastValidBlockHeight,
      feeLamports: prepared.feeLamports,
      computeUnitLimit: prepared.computeUnitLimit,
      computeUnitPrice: prepared.computeUnitPrice,
    });
  });
}

/** Decimal and base-unit forms of an amount, as interface B reports them. */
export function amountView(units: bigint, currency: Pick<Currency, 'decimals'>) {
  return { units: units.toString(), decimal: formatAmount(units, currency.decimals) };
}
