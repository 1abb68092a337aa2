import { err, ok, type Result, type ResultAsync, safeTry } from 'neverthrow';
import { z } from 'zod';
import { parseAmount } from '../../domain/money.js';
import { parseTokenPair, poolIdOf, type TokenPair } from '../../domain/token-pair.js';
import { type DomainError, domainError } from '../../errors.js';
import type { PoolRecord, SwapHistoryPage } from '../../ports/swap-store.js';
import { tokenPairField } from '../payments/request-fields.js';
import type { SwapDeps } from './deps.js';
import { type IndicativeQuote, indicativeQuote } from './quote.js';

/** Query parameters of GET /project/swap: strings, as a query string carries them. */
export const SwapInfoQuery = z.object({
  tokenPair: tokenPairField.optional(),
  amount: z.string().optional().meta({ description: 'Input amount in whole units', example: '1.5' }),
  page: z.string().optional().meta({ description: 'From 1; default 1' }),
  pageSize: z.string().optional().meta({ description: '1-100; default 20' }),
  cursor: z.string().optional().meta({
    description:
      "The previous answer's nextCursor: the page after it, read by keyset (stable while new swaps arrive); takes the place of page",
    example: '2.swp_Q2tYb3p1bVhrV0lYbm1xQQ',
  }),
});
export type SwapInfoQuery = z.infer<typeof SwapInfoQuery>;

export interface SwapInfo {
  readonly pair: TokenPair;
  readonly pool: PoolRecord;
  /** Indicative (nothing reserved), priced on the pool's free liquidity. */
  readonly quote?: IndicativeQuote;
  readonly history: SwapHistoryPage;
  readonly page: number;
  readonly pageSize: number;
  /** Where the next page starts, when there is one (`cursor` of the next request). */
  readonly nextCursor?: string;
}

/** `<page>.<requestId>`: the page it opens and the last request of the page before it. */
const CURSOR = /^([1-9]\d{0,8})\.([A-Za-z0-9_-]{1,128})$/;

function parseCursor(
  value: string,
  page: string | undefined,
): Result<{ page: number; after: string }, DomainError> {
  const m = CURSOR.exec(value);
  if (!m) return err(domainError('INVALID_PARAMETERS', 'cursor must be a nextCursor this API returned'));
  const at = Number(m[1]);
  if (page !== undefined && page !== m[1]) {
    return err(domainError('INVALID_PARAMETERS', `cursor opens page ${at}; leave page out or make it ${at}`));
  }
  return ok({ page: at, after: m[2]! });
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

/** The query, checked: what the store is asked for, and the amount to quote. */
interface SwapInfoRequest {
  readonly pair: TokenPair;
  readonly poolId: string;
  readonly cursor?: { readonly page: number; readonly after: string };
  readonly page: number;
  readonly pageSize: number;
  readonly amount?: bigint;
}

/**
 * GET /project/swap: the pair's pool, an indicative quote when `amount` is given, and a page of
 * the pool's swaps. A malformed or unknown pair is UNKNOWN_TOKEN_PAIR (400); a missing pair or a
 * bad amount/page/pageSize is INVALID_PARAMETERS (422).
 *
 * The query is checked synchronously and the answer built synchronously around the one call that
 * waits (the store's page): an async `safeTry` here cost every quote an async generator and a
 * promise per step, on the busiest read the service answers.
 */
export function swapInfo(
  deps: Pick<SwapDeps, 'currencies' | 'swaps' | 'swapPolicies'>,
  query: SwapInfoQuery,
): ResultAsync<SwapInfo, DomainError> {
  return checkQuery(deps, query).asyncAndThen((request) =>
    deps.swaps
      .history(
        request.poolId,
        request.cursor ? { after: request.cursor.after } : { page: request.page },
        request.pageSize,
      )
      .andThen((history) => answer(deps, request, history)),
  );
}

function checkQuery(
  deps: Pick<SwapDeps, 'currencies' | 'swapPolicies'>,
  query: SwapInfoQuery,
): Result<SwapInfoRequest, DomainError> {
  return safeTry(function* () {
    const pair = yield* parseTokenPair(deps.currencies, query.tokenPair);
    const cursor = query.cursor === undefined ? undefined : yield* parseCursor(query.cursor, query.page);
    const page = cursor ? cursor.page : yield* positiveInt(query.page, 'page', 1);
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
    return ok({
      pair,
      poolId,
      page,
      pageSize,
      ...(cursor ? { cursor } : {}),
      ...(amount !== undefined ? { amount } : {}),
    });
  });
}

/** The pool comes with the page, from one snapshot: a swap the page shows settled is in the
 * reserves the answer (and its quote) carries. */
function answer(
  deps: Pick<SwapDeps, 'currencies' | 'swapPolicies'>,
  request: SwapInfoRequest,
  history: SwapHistoryPage,
): Result<SwapInfo, DomainError> {
  const { pair, page, pageSize, amount } = request;
  const pool = history.pool;
  if (!pool) return err(domainError('UNKNOWN_TOKEN_PAIR', `pool ${request.poolId} is not open`));
  let quote: IndicativeQuote | undefined;
  if (amount !== undefined) {
    const priced = indicativeQuote(deps, pool, pair, amount);
    if (priced.isErr()) return err(priced.error);
    quote = priced.value;
  }
  const last = history.items.at(-1);
  const nextCursor =
    last && history.items.length === pageSize && page * pageSize < history.total
      ? `${page + 1}.${last.requestId}`
      : undefined;
  return ok({
    pair,
    pool,
    ...(quote ? { quote } : {}),
    history,
    page,
    pageSize,
    ...(nextCursor ? { nextCursor } : {}),
  });
}
