import { createRoute, z } from '@hono/zod-openapi';
import { executeSwap, type SwapDeps, SwapExecuteRequest } from '@token-actions/core';
import { SIGNATURE_EXAMPLE, TransactionStatus } from '../docs/components.js';
import { unwrap } from '../http/respond.js';
import { principalOf, type SwapsGuard } from './guard.js';
import type { SwapsApp } from './guarded-app.js';
import { bearerSecurity, errorsB, extraError, RateLimit } from './openapi.js';
import { okB } from './render.js';

const ExecuteResponse = z
  .object({
    requestId: z.string().openapi({ example: 'swp_01J9Z3' }),
    transactionId: z.string().openapi({ example: SIGNATURE_EXAMPLE }),
    status: TransactionStatus,
    rateLimit: RateLimit,
  })
  .openapi('SwapExecuteResponse');

const executeRoute = createRoute({
  method: 'post',
  path: '/v1/swap/execute',
  operationId: 'executeSwap',
  'x-use-case': 'executeSwap',
  tags: ['Swap'],
  summary: 'Land a prepared swap once the wallet signed it (exactly the prepared message, once)',
  security: bearerSecurity('write'),
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
});

export function registerExecute(app: SwapsApp, guard: SwapsGuard, deps: SwapDeps): void {
  app.openapi({ ...executeRoute, middleware: [guard.requireScope('write')] as const }, async (c) => {
    const out = await unwrap(executeSwap(deps, c.req.valid('json'), principalOf(c)));
    return okB(c, { requestId: out.requestId, transactionId: out.transactionId, status: out.status });
  });
}
