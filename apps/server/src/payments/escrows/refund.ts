import { createRoute } from '@hono/zod-openapi';
import { type ActionDeps, settleEscrow } from '@token-actions/core';
import { unwrap } from '../../http/respond.js';
import { bodylessWriteErrors, IdempotencyHeaders, notFound, ok, security } from '../openapi.js';
import type { PaymentsApp } from '../render.js';
import { EscrowResponse } from '../schemas.js';
import { escrowParam, settledJson } from './view.js';

const refundEscrowRoute = createRoute({
  method: 'post',
  path: '/v1/api/escrows/{id}/refund',
  operationId: 'refundEscrow',
  'x-use-case': 'settleEscrow',
  tags: ['Escrow'],
  summary: 'Return escrowed funds to the payer',
  security,
  // No body: the escrow in the path is all a refund needs, so any Content-Type is accepted.
  request: { params: escrowParam, headers: IdempotencyHeaders },
  responses: { ...ok('Settled', EscrowResponse), ...bodylessWriteErrors, ...notFound },
});

export function registerRefundEscrow(app: PaymentsApp, deps: ActionDeps): void {
  app.openapi(refundEscrowRoute, async (c) => {
    const input = { id: c.req.valid('param').id, settlement: 'refund' as const, tenant: c.get('tenant').id };
    return c.json(settledJson(await unwrap(settleEscrow(deps, input))), 200);
  });
}
