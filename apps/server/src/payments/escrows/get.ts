import { createRoute } from '@hono/zod-openapi';
import { type ActionDeps, getEscrow } from '@token-actions/core';
import { unwrap } from '../../http/respond.js';
import { notFound, ok, readErrors, security } from '../openapi.js';
import type { PaymentsApp } from '../render.js';
import { EscrowResponse } from '../schemas.js';
import { escrowJson, escrowParam } from './view.js';

const getEscrowRoute = createRoute({
  method: 'get',
  path: '/v1/api/escrows/{id}',
  operationId: 'getEscrow',
  'x-use-case': 'getEscrow',
  tags: ['Escrow'],
  summary: 'An escrow and its status',
  security,
  request: { params: escrowParam },
  responses: { ...ok('Escrow', EscrowResponse), ...readErrors, ...notFound },
});

export function registerGetEscrow(app: PaymentsApp, deps: ActionDeps): void {
  app.openapi(getEscrowRoute, async (c) => {
    const escrow = await unwrap(getEscrow(deps, { id: c.req.valid('param').id, tenant: c.get('tenant').id }));
    return c.json(escrowJson(escrow), 200);
  });
}
