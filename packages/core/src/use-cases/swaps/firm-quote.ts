import { err, ok, type ResultAsync, safeTry } from 'neverthrow';
import { encodeBase58 } from '../../domain/base58.js';
import type { Currency } from '../../domain/currency.js';
import type { PublicKey, Signature } from '../../domain/public-key.js';
import { assembleTransaction } from '../../domain/wire.js';
import { type DomainError, domainError } from '../../errors.js';
import type { TransferLeg } from '../../ports/chain.js';
import type { NewSwapRequest, SwapHop, SwapRequestRecord, SwapTransaction } from '../../ports/swap-store.js';
import { writableOf } from '../payments/pipeline/prepare.js';
import type { SwapCaller, SwapDeps } from './deps.js';
import { poolIdResolver, priceRoute } from './routing.js';
import { parseSwapRequest, type SwapRequest } from './swap-request.js';

/**
 * POST /project/swap: a firm quote from the project's pool. Its output is reserved in the pool
 * book, and the transaction settling it is built now: two transfers (user -> pool vault, pool vault
 * -> user), fee paid and presigned by the pool authority, so `transactionId` is already known. The
 * user signs the returned transaction and hands it to `executeSwap`.
 */
export function projectSwap(
  deps: Pick<
    SwapDeps,
    'currencies' | 'swaps' | 'chain' | 'keystore' | 'fees' | 'clock' | 'ids' | 'swapPolicies'
  >,
  input: SwapRequest,
  caller: SwapCaller,
): ResultAsync<BuiltSwap, DomainError> {
  return safeTry(async function* () {
    const { pair, amount, slippageBps, user } = yield* parseSwapRequest(deps, input, caller);
    const now = deps.clock.now();
    const built = yield* reserveAndBuild(deps, {
      request: {
        requestId: deps.ids.next('swp'),
        source: 'project',
        provider: 'pool',
        clientId: caller.clientId,
        user,
        inputToken: pair.input.code,
        outputToken: pair.output.code,
        inAmount: amount,
        slippageBps,
        expiresAt: new Date(now.getTime() + deps.swapPolicies.quoteTtlMs),
      },
      path: [pair.input.code, pair.output.code],
      feePayer: 'pool',
    });
    return ok(built);
  });
}

/** The transfers that settle a route: user -> first vault, each vault -> the next, last vault -> user. */
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
