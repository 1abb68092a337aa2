import { createRoute, z } from '@hono/zod-openapi';
import { executeSwap } from '@token-actions/core';
import { unwrap } from '../../http/respond.js';
import { type InterfaceBApp, type InterfaceBGuard, okB, principalOf } from '../../interface-b/index.js';
import type { SwapComposition } from '../../swaps.js';
import { SwapExecuteRequest, TransactionStatus } from '../schemas.js';
import { bearerSecurity, errorsB, extraError, RateLimit, SIGNATURE_EXAMPLE } from './common.js';

const ExecuteResponse = z
  .object({
    requestId: z.string().openapi({ example: 'swp_01J9Z3' }),
    transactionId: z.string().openapi({ example: SIGNATURE_EXAMPLE }),
    status: TransactionStatus,
    rateLimit: RateLimit,
  })
  .openapi('SwapExecuteResponse');

/** POST /v1/swap/execute. */
export function registerSwapExecuteRoute(app: InterfaceBApp, guard: InterfaceBGuard, swaps: SwapComposition) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/swap/execute',
      operationId: 'executeSwap',
      tags: ['Swap'],
      summary: 'Land a prepared swap once the wallet signed it (exactly the prepared message, once)',
      security: bearerSecurity('write'),
      middleware: [guard.requireScope('write')] as const,
      request: { body: { required: true, content: { 'application/json': { schema: SwapExecuteRequest } } } },
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
    async (c) => {
      const out = await unwrap(executeSwap(swaps.deps, c.req.valid('json'), principalOf(c)));
      return okB(c, { requestId: out.requestId, transactionId: out.transactionId, status: out.status });
    },
  );
}
