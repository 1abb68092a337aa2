import { createRoute, z } from '@hono/zod-openapi';
import {
  type AggregatorQuote,
  aggregatorSwap,
  type SwapDeps,
  SwapRequest,
  toBase64,
} from '@token-actions/core';
import { unwrap } from '../http/respond.js';
import { principalOf, type SwapsGuard } from './guard.js';
import type { SwapsApp } from './guarded-app.js';
import { bearerSecurity, errorsB, extraError, Quote, RateLimit } from './openapi.js';
import { okB } from './render.js';
import { quoteView } from './views.js';

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
    requestId: z.string().openapi({ example: 'swp_01J9Z3' }),
    provider: z.string().openapi({ description: 'Which aggregator routed it', example: 'localnet' }),
    transaction: z
      .string()
      .openapi({ description: 'Base64 wire transaction; the wallet pays the fee and signs' }),
    lastValidBlockHeight: z.string().openapi({ example: '1042' }),
    quote: Quote.extend({
      routePlan: z.array(z.record(z.string(), z.unknown())).openapi({ description: "Jupiter's routePlan" }),
      jupiter: z
        .record(z.string(), z.unknown())
        .openapi({ description: "The aggregator quote in Jupiter's shape" }),
    }),
    rateLimit: RateLimit,
  })
  .openapi('AggregatorSwapResponse');

const aggregatorSwapRoute = createRoute({
  method: 'post',
  path: '/v1/aggregator/swap',
  operationId: 'aggregatorSwap',
  'x-use-case': 'aggregatorSwap',
  tags: ['Swap'],
  summary:
    'Swap through the aggregator (Jupiter Swap API shape; the localnet default routes over the project pools)',
  security: bearerSecurity('write'),
  request: { body: { required: true, content: { 'application/json': { schema: SwapRequest } } } },
  responses: {
    200: {
      description: 'Quote with its route and the unsigned transaction',
      content: { 'application/json': { schema: AggregatorResponse } },
    },
    ...errorsB,
    ...extraError(422, 'No route, or the pools cannot honour it'),
    ...extraError(502, 'The aggregator failed or is unreachable'),
  },
});

export function registerAggregatorSwap(app: SwapsApp, guard: SwapsGuard, deps: SwapDeps): void {
  app.openapi({ ...aggregatorSwapRoute, middleware: [guard.requireScope('write')] as const }, async (c) => {
    const out = await unwrap(aggregatorSwap(deps, c.req.valid('json'), principalOf(c)));
    const jq = jupiterQuote(out.quote);
    return okB(c, {
      requestId: out.requestId,
      provider: out.provider,
      transaction: toBase64(out.transaction),
      lastValidBlockHeight: out.lastValidBlockHeight.toString(),
      quote: { ...quoteView(deps.currencies, out.request), routePlan: jq.routePlan, jupiter: jq },
    });
  });
}
