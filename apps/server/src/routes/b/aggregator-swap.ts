import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { type AggregatorQuote, aggregatorSwap, toBase64 } from '@token-actions/core';
import type { Context } from 'hono';
import { type InterfaceBGuard, principalOf } from '../../interface-b/index.js';
import type { Logger } from '../../logger.js';
import type { SwapComposition } from '../../swaps.js';
import {
  bearerSecurity,
  errorsB,
  extraError,
  interfaceBHook,
  Quote,
  quoteView,
  RateLimit,
  SwapRequestBody,
  settle,
  valid,
} from './common.js';

/** The aggregator's quote in Jupiter's own shape (amounts as base-unit strings). */
function jupiterQuote(q: AggregatorQuote) {
  return {
    inputMint: q.inputMint,
    inAmount: q.inAmount.toString(),
    outputMint: q.outputMint,
    outAmount: q.outAmount.toString(),
    otherAmountThreshold: q.otherAmountThreshold.toString(),
    swapMode: q.swapMode,
    slippageBps: q.slippageBps,
    priceImpactPct: q.priceImpactPct,
    routePlan: q.routePlan.map((s) => ({
      swapInfo: {
        ...s.swapInfo,
        inAmount: s.swapInfo.inAmount.toString(),
        outAmount: s.swapInfo.outAmount.toString(),
        feeAmount: s.swapInfo.feeAmount.toString(),
      },
      percent: s.percent,
    })),
  };
}

const AggregatorResponse = z
  .object({
    requestId: z.string(),
    provider: z.string(),
    transaction: z
      .string()
      .openapi({ description: 'Base64 wire transaction; the wallet pays the fee and signs' }),
    lastValidBlockHeight: z.string(),
    quote: Quote.extend({
      routePlan: z.array(z.record(z.string(), z.unknown())).openapi({ description: "Jupiter's routePlan" }),
      jupiter: z
        .record(z.string(), z.unknown())
        .openapi({ description: "The aggregator quote in Jupiter's shape" }),
    }),
    rateLimit: RateLimit,
  })
  .openapi('AggregatorSwapResponse');

/** POST /v1/aggregator/swap. */
export function registerAggregatorSwapRoute(
  app: OpenAPIHono,
  guard: InterfaceBGuard,
  swaps: SwapComposition,
  logger: Logger,
) {
  const { deps } = swaps;
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/aggregator/swap',
      tags: ['Swap'],
      summary:
        'Swap through the aggregator (Jupiter Swap API shape; the localnet default routes over the project pools)',
      security: bearerSecurity('write'),
      middleware: [guard.requireScope('write')] as const,
      request: { body: { required: true, content: { 'application/json': { schema: SwapRequestBody } } } },
      responses: {
        200: {
          description: 'Quote with its route and the unsigned transaction',
          content: { 'application/json': { schema: AggregatorResponse } },
        },
        ...errorsB,
        ...extraError(422, 'No route, or the pools cannot honour it'),
        ...extraError(502, 'The aggregator failed or is unreachable'),
      },
    }),
    ((c: Context) =>
      settle(
        c,
        aggregatorSwap(deps, valid<never>(c, 'json'), principalOf(c)),
        (out) => {
          const jq = jupiterQuote(out.quote);
          return c.json(
            {
              requestId: out.requestId,
              provider: out.provider,
              transaction: toBase64(out.transaction),
              lastValidBlockHeight: out.lastValidBlockHeight.toString(),
              quote: { ...quoteView(deps.currencies, out.request), routePlan: jq.routePlan, jupiter: jq },
            } as never,
            200,
          );
        },
        (e) => logger.error({ code: e.code, context: e.context }, 'aggregator swap failed'),
      )) as never,
    interfaceBHook as never,
  );
}
