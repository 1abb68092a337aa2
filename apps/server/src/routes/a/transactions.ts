import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { preview, sign, track } from '@token-actions/core';
import { actionOptions, str, unwrap } from '../../http/respond.js';
import type { AppServices } from '../../services.js';
import {
  TransactionPreviewRequest,
  TransactionPreviewResponse,
  TransactionSignRequest,
  TransactionSignResponse,
  TransactionTrackingResponse,
} from '../schemas.js';
import { errorResponses, jsonBody, notFound, security } from './common.js';

export function registerTransactionRoutes(app: OpenAPIHono, services: AppServices) {
  const { deps } = services;

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/api/transaction/preview',
      tags: ['Transaction'],
      summary: 'Build a transaction and return a tamper-evident preview of it',
      security,
      request: { body: jsonBody(TransactionPreviewRequest) },
      responses: {
        200: {
          description: 'Preview',
          content: { 'application/json': { schema: TransactionPreviewResponse } },
        },
        ...errorResponses,
      },
    }),
    async (c) => {
      const out = await unwrap(preview(deps, c.req.valid('json')));
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
      tags: ['Transaction'],
      summary: 'Sign and send the transaction of a prior preview (once, however often called)',
      security,
      request: { body: jsonBody(TransactionSignRequest) },
      responses: {
        200: {
          description: 'Signed and submitted',
          content: { 'application/json': { schema: TransactionSignResponse } },
        },
        ...errorResponses,
      },
    }),
    async (c) => {
      const out = await unwrap(sign(deps, c.req.valid('json'), actionOptions(c as never)));
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
      tags: ['Transaction'],
      summary: 'Current status of a transaction',
      security,
      request: {
        params: z.object({
          transactionId: z.string().openapi({ param: { name: 'transactionId', in: 'path' } }),
        }),
      },
      responses: {
        200: {
          description: 'Status',
          content: { 'application/json': { schema: TransactionTrackingResponse } },
        },
        ...errorResponses,
        ...notFound,
      },
    }),
    async (c) => {
      const out = await unwrap(track(deps, { transactionId: c.req.valid('param').transactionId }));
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
