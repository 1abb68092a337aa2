import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { projectSwap, type SwapInfoQuery, spotPrice, swapInfo, toBase64 } from '@token-actions/core';
import type { Context } from 'hono';
import { type InterfaceBGuard, principalOf } from '../../interface-b/index.js';
import type { Logger } from '../../logger.js';
import type { SwapComposition } from '../../swaps.js';
import {
  amounts,
  bearerSecurity,
  errorsB,
  extraError,
  interfaceBHook,
  Quote,
  quoteView,
  RateLimit,
  SwapItem,
  SwapRequestBody,
  settle,
  swapView,
  valid,
} from './common.js';

const PoolView = z
  .object({
    id: z.string(),
    inputToken: z.string(),
    outputToken: z.string(),
    reserveIn: z.string(),
    reserveInDecimal: z.string(),
    reserveOut: z.string(),
    reserveOutDecimal: z.string(),
    reservedOut: z.string(),
    reservedOutDecimal: z.string(),
    availableOut: z.string(),
    availableOutDecimal: z.string(),
    spotPrice: z.string().openapi({ description: 'Output units per input unit' }),
    feeBps: z.number().int(),
    vault: z.string().openapi({ description: 'The pool authority: owner of the vaults' }),
  })
  .openapi('PoolState');

const SwapInfoResponse = z
  .object({
    tokenPair: z.string(),
    pool: PoolView,
    quote: Quote.optional(),
    swaps: z.array(SwapItem),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    rateLimit: RateLimit,
  })
  .openapi('SwapInfoResponse');

const FirmQuoteResponse = z
  .object({
    requestId: z.string(),
    transactionId: z
      .string()
      .openapi({ description: "The pool authority's signature, known before the wallet signs" }),
    transaction: z
      .string()
      .openapi({ description: 'Base64 wire transaction, partially signed: sign the user slot' }),
    lastValidBlockHeight: z.string(),
    quote: Quote,
    rateLimit: RateLimit,
  })
  .openapi('FirmQuoteResponse');

/** GET and POST /v1/project/swap. */
export function registerProjectSwapRoutes(
  app: OpenAPIHono,
  guard: InterfaceBGuard,
  swaps: SwapComposition,
  logger: Logger,
) {
  const { deps } = swaps;
  const logError = (e: { code: string; context?: unknown }) =>
    logger.error({ code: e.code, context: e.context }, 'swap operation failed');

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/project/swap',
      tags: ['Swap'],
      summary: "The pair's pool, an indicative quote when amount is given, and a page of its swaps",
      security: bearerSecurity('read'),
      middleware: [guard.requireScope('read')] as const,
      request: {
        query: z.object({
          tokenPair: z.string().optional().openapi({ example: 'SOL-USDC' }),
          amount: z
            .string()
            .optional()
            .openapi({ description: 'Input amount in whole units', example: '1.5' }),
          page: z.string().optional().openapi({ description: 'From 1; default 1' }),
          pageSize: z.string().optional().openapi({ description: '1-100; default 20' }),
        }),
      },
      responses: {
        200: {
          description: 'Pool, quote and history',
          content: { 'application/json': { schema: SwapInfoResponse } },
        },
        ...errorsB,
        ...extraError(422, 'Missing or invalid parameters (page < 1, pageSize > 100, amount not positive)'),
      },
    }),
    ((c: Context) =>
      settle(
        c,
        swapInfo(deps, valid<SwapInfoQuery>(c, 'query')),
        (info) => {
          const cur = deps.currencies;
          const inIsA = info.pool.tokenA === info.pair.input.code;
          const reserveIn = inIsA ? info.pool.reserveA : info.pool.reserveB;
          const reserveOut = inIsA ? info.pool.reserveB : info.pool.reserveA;
          const reservedOut = inIsA ? info.pool.reservedB : info.pool.reservedA;
          const inCode = info.pair.input.code;
          const outCode = info.pair.output.code;
          return c.json(
            {
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
                spotPrice: spotPrice(
                  reserveIn,
                  info.pair.input.decimals,
                  reserveOut,
                  info.pair.output.decimals,
                ),
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
            } as never,
            200,
          );
        },
        logError,
      )) as never,
    interfaceBHook as never,
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/project/swap',
      tags: ['Swap'],
      summary:
        "Firm quote from the project's pool: output reserved, pool-signed transaction for the wallet to sign",
      security: bearerSecurity('write'),
      middleware: [guard.requireScope('write')] as const,
      request: { body: { required: true, content: { 'application/json': { schema: SwapRequestBody } } } },
      responses: {
        200: {
          description: 'Firm quote and its transaction',
          content: { 'application/json': { schema: FirmQuoteResponse } },
        },
        ...errorsB,
        ...extraError(422, 'The pool cannot honour this swap'),
      },
    }),
    ((c: Context) => {
      const principal = principalOf(c);
      return settle(
        c,
        projectSwap(deps, valid<never>(c, 'json'), principal),
        (built) =>
          c.json(
            {
              requestId: built.request.requestId,
              transactionId: built.transaction.transactionId!,
              transaction: toBase64(built.wire),
              lastValidBlockHeight: built.transaction.lastValidBlockHeight.toString(),
              quote: quoteView(deps.currencies, built.request),
            } as never,
            200,
          ),
        logError,
      );
    }) as never,
    interfaceBHook as never,
  );
}
