import { createRoute, z } from '@hono/zod-openapi';
import { preview, sign, track } from '@token-actions/core';
import { actionOptions, str, unwrap } from '../../http/respond.js';
import type { InterfaceAApp } from '../../interface-a/render.js';
import type { AppServices } from '../../services.js';
import {
  TransactionPreviewRequest,
  TransactionPreviewResponse,
  TransactionSignRequest,
  TransactionSignResponse,
  TransactionTrackingResponse,
} from '../schemas.js';
import {
  forbidden,
  IdempotencyHeaders,
  jsonBody,
  notFound,
  ok,
  readErrors,
  security,
  writeErrors,
} from './common.js';

export function registerTransactionRoutes(app: InterfaceAApp, services: AppServices) {
  const { deps } = services;

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/api/transaction/preview',
      operationId: 'previewTransaction',
      tags: ['Transaction'],
      summary: 'Build a transaction and return a tamper-evident preview of it',
      security,
      request: { headers: IdempotencyHeaders, body: jsonBody(TransactionPreviewRequest) },
      responses: { ...ok('Preview', TransactionPreviewResponse), ...writeErrors, ...forbidden },
    }),
    async (c) => {
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
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/api/transaction/sign',
      operationId: 'signTransaction',
      tags: ['Transaction'],
      summary: 'Sign and send the transaction of a prior preview (once, however often called)',
      security,
      request: { headers: IdempotencyHeaders, body: jsonBody(TransactionSignRequest) },
      responses: { ...ok('Signed and submitted', TransactionSignResponse), ...writeErrors, ...forbidden },
    }),
    async (c) => {
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
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/api/transaction/track/{transactionId}',
      operationId: 'trackTransaction',
      tags: ['Transaction'],
      summary: 'Current status of a transaction',
      security,
      request: {
        params: z.object({
          transactionId: z.string().openapi({
            param: { name: 'transactionId', in: 'path' },
            description: 'Transaction signature (base58, 64 bytes)',
            example:
              '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW',
          }),
        }),
      },
      responses: { ...ok('Status', TransactionTrackingResponse), ...readErrors, ...notFound },
    }),
    async (c) => {
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
    },
  );
}
