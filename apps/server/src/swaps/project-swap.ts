import { createRoute, z } from '@hono/zod-openapi';
import { projectSwap, type SwapDeps, SwapRequest, toBase64 } from '@token-actions/core';
import { SIGNATURE_EXAMPLE } from '../docs/components.js';
import { unwrap } from '../http/respond.js';
import { principalOf, type SwapsGuard } from './guard.js';
import type { SwapsApp } from './guarded-app.js';
import { bearerSecurity, errorsB, extraError, Quote, RateLimit } from './openapi.js';
import { okB } from './render.js';
import { quoteView } from './views.js';

const FirmQuoteResponse = z
  .object({
    requestId: z.string().openapi({ example: 'swp_01J9Z3' }),
    transactionId: z.string().openapi({
      description: "The pool authority's signature, known before the wallet signs",
      example: SIGNATURE_EXAMPLE,
    }),
    transaction: z.string().openapi({
      description: 'Base64 wire transaction, partially signed: sign the user slot',
      example: 'AgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA...',
    }),
    lastValidBlockHeight: z.string().openapi({ example: '1042' }),
    quote: Quote,
    rateLimit: RateLimit,
  })
  .openapi('FirmQuoteResponse');

const projectSwapRoute = createRoute({
  method: 'post',
  path: '/v1/project/swap',
  operationId: 'quoteProjectSwap',
  'x-use-case': 'projectSwap',
  tags: ['Swap'],
  summary:
    "Firm quote from the project's pool: output reserved, pool-signed transaction for the wallet to sign",
  security: bearerSecurity('write'),
  request: { body: { required: true, content: { 'application/json': { schema: SwapRequest } } } },
  responses: {
    200: {
      description: 'Firm quote and its transaction',
      content: { 'application/json': { schema: FirmQuoteResponse } },
    },
    ...errorsB,
    ...extraError(422, 'The pool cannot honour this swap'),
  },
});

/** The firm quote: the output is reserved in the pool until the transaction lands or expires. */
export function registerProjectSwap(app: SwapsApp, guard: SwapsGuard, deps: SwapDeps): void {
  app.openapi({ ...projectSwapRoute, middleware: [guard.requireScope('write')] as const }, async (c) => {
    const built = await unwrap(projectSwap(deps, c.req.valid('json'), principalOf(c)));
    return okB(c, {
      requestId: built.request.requestId,
      transactionId: built.transaction.transactionId!,
      transaction: toBase64(built.wire),
      lastValidBlockHeight: built.transaction.lastValidBlockHeight.toString(),
      quote: quoteView(deps.currencies, built.request),
    });
  });
}
