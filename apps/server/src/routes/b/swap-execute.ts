import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { executeSwap } from '@token-actions/core';
import type { Context } from 'hono';
import { type InterfaceBGuard, principalOf } from '../../interface-b/index.js';
import type { Logger } from '../../logger.js';
import type { SwapComposition } from '../../swaps.js';
import { bearerSecurity, errorsB, extraError, interfaceBHook, RateLimit, settle, valid } from './common.js';

const ExecuteBody = z
  .strictObject({
    requestId: z.string().openapi({ description: 'From POST /project/swap or /aggregator/swap' }),
    signedTransaction: z
      .string()
      .openapi({ description: 'The returned transaction, base64, signed by the wallet' }),
  })
  .openapi('SwapExecuteRequest');

const ExecuteResponse = z
  .object({
    requestId: z.string(),
    transactionId: z.string(),
    status: z
      .string()
      .openapi({ description: 'pending, processed, confirmed, finalized, failed or expired' }),
    rateLimit: RateLimit,
  })
  .openapi('SwapExecuteResponse');

/** POST /v1/swap/execute. */
export function registerSwapExecuteRoute(
  app: OpenAPIHono,
  guard: InterfaceBGuard,
  swaps: SwapComposition,
  logger: Logger,
) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/swap/execute',
      tags: ['Swap'],
      summary: 'Land a prepared swap once the wallet signed it (exactly the prepared message, once)',
      security: bearerSecurity('write'),
      middleware: [guard.requireScope('write')] as const,
      request: { body: { required: true, content: { 'application/json': { schema: ExecuteBody } } } },
      responses: {
        200: {
          description: 'Recorded and sent',
          content: { 'application/json': { schema: ExecuteResponse } },
        },
        ...errorsB,
        ...extraError(404, 'No such swap request for this client'),
        ...extraError(409, 'Quote expired (blockhash passed): nothing was sent'),
      },
    }),
    ((c: Context) =>
      settle(
        c,
        executeSwap(swaps.deps, valid<never>(c, 'json'), principalOf(c)),
        (out) =>
          c.json(
            { requestId: out.requestId, transactionId: out.transactionId, status: out.status } as never,
            200,
          ),
        (e) => logger.error({ code: e.code, context: e.context }, 'swap execute failed'),
      )) as never,
    interfaceBHook as never,
  );
}
