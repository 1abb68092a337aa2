import { createRoute } from '@hono/zod-openapi';
import { type ActionDeps, preview, TransactionPreviewRequest } from '@token-actions/core';
import { unwrap } from '../http/respond.js';
import { forbidden, IdempotencyHeaders, jsonBody, ok, security, writeErrors } from './openapi.js';
import type { PaymentsApp } from './render.js';
import { TransactionPreviewResponse } from './schemas.js';

const previewRoute = createRoute({
  method: 'post',
  path: '/v1/api/transaction/preview',
  operationId: 'previewTransaction',
  'x-use-case': 'preview',
  tags: ['Transaction'],
  summary: 'Build a transaction and return a tamper-evident preview of it',
  security,
  request: { headers: IdempotencyHeaders, body: jsonBody(TransactionPreviewRequest) },
  responses: { ...ok('Preview', TransactionPreviewResponse), ...writeErrors, ...forbidden },
});

export function registerPreview(app: PaymentsApp, deps: ActionDeps): void {
  app.openapi(previewRoute, async (c) => {
    const out = await unwrap(preview(deps, c.req.valid('json'), c.get('tenant')));
    return c.json(
      {
        preview: out.preview,
        transactionType: out.transactionType,
        expiresAt: out.expiresAt.toISOString(),
        feeLamports: out.feeLamports.toString(),
        lastValidBlockHeight: out.lastValidBlockHeight.toString(),
        balanceChanges: [...out.balanceChanges],
      },
      200,
    );
  });
}
