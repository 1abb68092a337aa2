import { createRoute } from '@hono/zod-openapi';
import { type ActionDeps, sign, TransactionSignRequest } from '@token-actions/core';
import { actionOptions, unwrap } from '../http/respond.js';
import { forbidden, IdempotencyHeaders, jsonBody, ok, security, writeErrors } from './openapi.js';
import type { PaymentsApp } from './render.js';
import { TransactionSignResponse } from './schemas.js';

const signRoute = createRoute({
  method: 'post',
  path: '/v1/api/transaction/sign',
  operationId: 'signTransaction',
  'x-use-case': 'sign',
  tags: ['Transaction'],
  summary: 'Sign and send the transaction of a prior preview (once, however often called)',
  security,
  request: { headers: IdempotencyHeaders, body: jsonBody(TransactionSignRequest) },
  responses: { ...ok('Signed and submitted', TransactionSignResponse), ...writeErrors, ...forbidden },
});

export function registerSign(app: PaymentsApp, deps: ActionDeps): void {
  app.openapi(signRoute, async (c) => {
    const out = await unwrap(sign(deps, c.req.valid('json'), actionOptions(c)));
    return c.json(
      {
        message: out.message,
        transactionId: out.transactionId,
        ...(out.escrowId ? { escrowId: out.escrowId } : {}),
        ...(out.mint ? { mint: out.mint } : {}),
      },
      200,
    );
  });
}
