import { err, ok, type Result, type ResultAsync, safeTry } from 'neverthrow';
import { parseAmount } from '../domain/money.js';
import { parseTokenPair, poolIdOf, type TokenPair } from '../domain/token-pair.js';
import { type DomainError, domainError } from '../errors.js';
import type { PoolRecord, SwapHistoryPage } from '../ports/swap-store.js';
import type { SwapCaller, SwapDeps } from './swap-deps.js';
import {
  type BuiltSwap,
  type PricedRoute,
  parseSwapRequest,
  poolIdResolver,
  priceRoute,
  reserveAndBuild,
} from './swap-route.js';

export interface SwapInfoQuery {
  readonly tokenPair?: unknown;
  readonly amount?: unknown;
  readonly page?: unknown;
  readonly pageSize?: unknown;
}

export interface SwapInfo {
  readonly pair: TokenPair;
  readonly pool: PoolRecord;
  /** Indicative (nothing reserved), priced on the pool's free liquidity. */
  readonly quote?: PricedRoute & { readonly slippageBps: number };
  readonly history: SwapHistoryPage;
  readonly page: number;
  readonly pageSize: number;
}

const asParameterError = (e: DomainError) => domainError('INVALID_PARAMETERS', e.message);

function positiveInt(
  value: unknown,
  field: string,
  fallback: number,
  max?: number,
): Result<number, DomainError> {
  if (value === undefined) return ok(fallback);
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,9}$/.test(text) || Number(text) < 1) {
    return err(domainError('INVALID_PARAMETERS', `${field} must be a whole number of at least 1`));
  }
  const n = Number(text);
  if (max !== undefined && n > max) {
    return err(domainError('INVALID_PARAMETERS', `${field} must be at most ${max}`));
  }
  return ok(n);
}

/**
 * GET /project/swap: the pair's pool, an indicative quote when `amount` is given, and a page of
 * the pool's swaps. A malformed or unknown pair is UNKNOWN_TOKEN_PAIR (400); a missing pair or a
 * bad amount/page/pageSize is INVALID_PARAMETERS (422).
 */
export function swapInfo(
  deps: Pick<SwapDeps, 'currencies' | 'swaps' | 'swapPolicies'>,
  query: SwapInfoQuery,
): ResultAsync<SwapInfo, DomainError> {
  return safeTry(async function* () {
    const pair = yield* parseTokenPair(deps.currencies, query.tokenPair);
    const page = yield* positiveInt(query.page, 'page', 1);
    const pageSize = yield* positiveInt(
      query.pageSize,
      'pageSize',
      deps.swapPolicies.defaultPageSize,
      deps.swapPolicies.maxPageSize,
    );
    const amount =
      query.amount === undefined
        ? undefined
        : yield* parseAmount(query.amount, pair.input).mapErr(asParameterError);
    const poolId = poolIdOf(deps.currencies, pair.input, pair.output);
    const pool = yield* deps.swaps.getPool(poolId);
    if (!pool) return err(domainError('UNKNOWN_TOKEN_PAIR', `pool ${poolId} is not open`));
    let quote: SwapInfo['quote'];
    if (amount !== undefined) {
      const slippageBps = deps.swapPolicies.defaultSlippageBps;
      const priced = yield* priceRoute(
        new Map([[pool.id, pool]]),
        poolIdResolver(deps),
        [pair.input.code, pair.output.code],
        amount,
        slippageBps,
      ).mapErr((e) => domainError('INVALID_PARAMETERS', e.message));
      quote = { ...priced, slippageBps };
    }
    const history = yield* deps.swaps.history(pool.id, page, pageSize);
    return ok({ pair, pool, ...(quote ? { quote } : {}), history, page, pageSize });
  });
}

export interface ProjectSwapInput {
  readonly tokenPair: unknown;
  readonly amount: unknown;
  readonly slippageBps?: unknown;
  readonly account?: unknown;
}

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
  input: ProjectSwapInput,
  caller: SwapCaller,
): ResultAsync<BuiltSwap, DomainError> {
  return safeTry(async function* () {
    const { pair, amount, slippageBps, user } = yield* parseSwapRequest(deps, input, caller, (v) =>
      parseTokenPair(deps.currencies, v).mapErr((e) =>
        e.code === 'INVALID_PARAMETERS' ? domainError('INVALID_INPUT', e.message) : e,
      ),
    );
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
