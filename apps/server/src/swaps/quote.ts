import { createRoute, z } from '@hono/zod-openapi';
import {
  currencyField,
  type SwapDeps,
  SwapInfoQuery,
  spotPrice,
  swapInfo,
  tokenPairField,
} from '@token-actions/core';
import { KEY_EXAMPLE } from '../docs/components.js';
import { unwrap } from '../http/respond.js';
import type { SwapsGuard } from './guard.js';
import type { SwapsApp } from './guarded-app.js';
import { bearerSecurity, errorsB, extraError, Quote, RateLimit, SwapItem } from './openapi.js';
import { okB } from './render.js';
import { amounts, quoteView, swapView } from './views.js';

const PoolView = z
  .object({
    id: z.string().openapi({ example: 'SOL-USDC' }),
    inputToken: currencyField,
    outputToken: currencyField,
    reserveIn: z.string(),
    reserveInDecimal: z.string(),
    reserveOut: z.string(),
    reserveOutDecimal: z.string(),
    reservedOut: z.string(),
    reservedOutDecimal: z.string(),
    availableOut: z.string(),
    availableOutDecimal: z.string(),
    spotPrice: z.string().openapi({ description: 'Output units per input unit', example: '150.25' }),
    feeBps: z.number().int().openapi({ example: 30 }),
    vault: z
      .string()
      .openapi({ description: 'The pool authority: owner of the vaults', example: KEY_EXAMPLE }),
  })
  .openapi('PoolState');

const SwapInfoResponse = z
  .object({
    tokenPair: tokenPairField,
    pool: PoolView,
    quote: Quote.optional(),
    swaps: z.array(SwapItem),
    page: z.number().int().openapi({ example: 1 }),
    pageSize: z.number().int().openapi({ example: 20 }),
    total: z.number().int().openapi({ example: 1 }),
    nextCursor: z.string().optional().openapi({
      description: 'Pass as cursor for the next page (keyset); absent on the last page',
      example: '2.swp_Q2tYb3p1bVhrV0lYbm1xQQ',
    }),
    rateLimit: RateLimit,
  })
  .openapi('SwapInfoResponse');

export const quoteRoute = createRoute({
  method: 'get',
  path: '/v1/project/swap',
  operationId: 'getProjectSwap',
  'x-use-case': 'swapInfo',
  tags: ['Swap'],
  summary: "The pair's pool, an indicative quote when amount is given, and a page of its swaps",
  security: bearerSecurity('read'),
  request: { query: SwapInfoQuery },
  responses: {
    200: {
      description: 'Pool, quote and history',
      content: { 'application/json': { schema: SwapInfoResponse } },
    },
    ...errorsB,
    ...extraError(422, 'Missing or invalid parameters (page < 1, pageSize > 100, amount not positive)'),
  },
});

/** The indicative quote: what the pool would give now, nothing reserved, nothing to sign. */
export function registerQuote(app: SwapsApp, guard: SwapsGuard, deps: SwapDeps): void {
  app.openapi({ ...quoteRoute, middleware: [guard.requireScope('read')] as const }, async (c) => {
    const info = await unwrap(swapInfo(deps, c.req.valid('query')));
    const cur = deps.currencies;
    const inIsA = info.pool.tokenA === info.pair.input.code;
    const reserveIn = inIsA ? info.pool.reserveA : info.pool.reserveB;
    const reserveOut = inIsA ? info.pool.reserveB : info.pool.reserveA;
    const reservedOut = inIsA ? info.pool.reservedB : info.pool.reservedA;
    const inCode = info.pair.input.code;
    const outCode = info.pair.output.code;
    return okB(c, {
      tokenPair: `${inCode}-${outCode}`,
      pool: {
        id: info.pool.id,
        inputToken: inCode,
        outputToken: outCode,
        ...amounts(cur, {
          reserveIn: { units: reserveIn, code: inCode },
          reserveOut: { units: reserveOut, code: outCode },
          reservedOut: { units: reservedOut, code: outCode },
          availableOut: { units: reserveOut - reservedOut, code: outCode },
        }),
        spotPrice: spotPrice(reserveIn, info.pair.input.decimals, reserveOut, info.pair.output.decimals),
        feeBps: info.pool.feeBps,
        vault: info.pool.authority,
      },
      ...(info.quote
        ? {
            quote: quoteView(cur, {
              ...info.quote,
              inputToken: inCode,
              outputToken: outCode,
              inAmount: info.quote.hops[0]!.inAmount,
            }),
          }
        : {}),
      swaps: info.history.items.map((r) => swapView(cur, r)),
      page: info.page,
      pageSize: info.pageSize,
      total: info.history.total,
      ...(info.nextCursor ? { nextCursor: info.nextCursor } : {}),
    });
  });
}
