import { createRoute } from '@hono/zod-openapi';
import { type ActionDeps, track } from '@token-actions/core';
import { SIGNATURE_EXAMPLE } from '../docs/components.js';
import { str, unwrap } from '../http/respond.js';
import { notFound, ok, pathParam, readErrors, security } from './openapi.js';
import type { PaymentsApp } from './render.js';
import { TransactionTrackingResponse } from './schemas.js';

const trackRoute = createRoute({
  method: 'get',
  path: '/v1/api/transaction/track/{transactionId}',
  operationId: 'trackTransaction',
  'x-use-case': 'track',
  tags: ['Transaction'],
  summary: 'Current status of a transaction',
  security,
  request: {
    params: pathParam('transactionId', 'Transaction signature (base58, 64 bytes)', SIGNATURE_EXAMPLE),
  },
  responses: { ...ok('Status', TransactionTrackingResponse), ...readErrors, ...notFound },
});

export function registerTrack(app: PaymentsApp, deps: ActionDeps): void {
  app.openapi(trackRoute, async (c) => {
    const out = await unwrap(
      track(deps, { transactionId: c.req.valid('param').transactionId, tenant: c.get('tenant').id }),
    );
    const r = out.record;
    return c.json(
      {
        transactionId: out.transactionId,
        explorerUrl: out.explorerUrl,
        status: out.status,
        ...(r
          ? {
              kind: r.kind,
              ...(r.priority ? { priority: r.priority } : {}),
              computeUnitPrice: r.computeUnitPrice.toString(),
              computeUnitLimit: r.computeUnitLimit,
              feeLamports: r.feeLamports.toString(),
              ...(r.slot !== undefined ? { slot: str(r.slot) } : {}),
              ...(r.error ? { error: r.error } : {}),
              ...(r.escrowId ? { escrowId: r.escrowId } : {}),
              ...(r.mint ? { mint: r.mint } : {}),
            }
          : {}),
      },
      200,
    );
  });
}
