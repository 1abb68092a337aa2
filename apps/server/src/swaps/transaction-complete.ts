import { z } from '@hono/zod-openapi';
import { domainError, parseCompletionPayload, TX_STATUSES, transactionComplete } from '@token-actions/core';
import type { SwapComposition } from '@token-actions/runtime/edge';
import type { MiddlewareHandler } from 'hono';
import { SIGNATURE_EXAMPLE } from '../docs/components.js';
import { DomainHttpError } from '../http/errors.js';
import { unwrap } from '../http/respond.js';
import type { SwapsGuard } from './guard.js';
import type { SwapsApp } from './guarded-app.js';
import { bearerSecurity, errB, errorsB, extraError, RateLimit, SwapStatus } from './openapi.js';
import { okB, type SwapsEnv } from './render.js';

/** Completion notifications (a Helius batch can be large) may exceed MAX_BODY_BYTES up to this. */
export const MAX_NOTIFICATION_BYTES = 256 * 1024;
export const TRANSACTION_COMPLETE_PATH = '/v1/webhooks/transaction-complete';

const CompletionBody = z
  .union([
    z.object({
      transactionId: z.string().openapi({ example: SIGNATURE_EXAMPLE }),
      status: z.string().openapi({
        description: 'What the sender claims (checked against the chain, never trusted)',
        enum: [...TX_STATUSES],
        example: 'finalized',
      }),
      slot: z.number().int().optional().openapi({ example: 1038 }),
      error: z.unknown().optional(),
    }),
    z
      .array(z.record(z.string(), z.unknown()))
      .openapi({ description: 'Helius enhanced transactions ({signature, slot, transactionError, ...})' }),
  ])
  .openapi('TransactionCompleteNotification');

const CompletionResponse = z
  .object({
    received: z.literal(true),
    duplicate: z.boolean().openapi({ description: 'This webhook-id was seen before', example: false }),
    results: z.array(
      z.object({
        transactionId: z.string().openapi({ example: SIGNATURE_EXAMPLE }),
        claimed: z.string().optional().openapi({ example: 'finalized' }),
        status: z.enum([...TX_STATUSES, 'unknown']).openapi({
          description: 'The status after re-checking the chain; unknown if never seen',
          example: 'finalized',
        }),
        swapRequestId: z.string().optional().openapi({ example: 'swp_01J9Z3' }),
        swapStatus: SwapStatus.optional(),
      }),
    ),
    rateLimit: RateLimit,
  })
  .openapi('TransactionCompleteResponse');

/**
 * POST /v1/webhooks/transaction-complete: a notifier says a transaction completed. Declared for
 * the document, and served as a plain route: the body is read as text, because a Standard
 * Webhooks signature covers the exact bytes, and only then parsed.
 */
export function registerTransactionComplete(app: SwapsApp, guard: SwapsGuard, swaps: SwapComposition): void {
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/v1/webhooks/transaction-complete',
    operationId: 'notifyTransactionComplete',
    'x-use-case': 'transactionComplete',
    tags: ['Webhook'],
    summary: 'A transaction completed (a hint: the chain is re-checked before any status changes)',
    description:
      'Body: {transactionId, status, slot?, error?} or a Helius enhanced-transaction array. With WEBHOOK_SECRET set, Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature; 5 min tolerance) are required and OAuth is not; otherwise a bearer token with the write scope. A repeated webhook-id answers 200 with duplicate=true and has no effect.',
    security: [...bearerSecurity('write'), { standardWebhooks: [] }],
    request: { body: { required: true, content: { 'application/json': { schema: CompletionBody } } } },
    responses: {
      200: {
        description: 'Notification received',
        content: { 'application/json': { schema: CompletionResponse } },
      },
      ...errorsB,
      401: errB(401, 'Bad or stale signature, or no valid token'),
      ...extraError(413, 'Body too large'),
    },
  });

  // With WEBHOOK_SECRET the Standard Webhooks signature is the credential (a notifier cannot run
  // an OAuth flow); without one the caller needs an OAuth token with the write scope.
  const authenticate: MiddlewareHandler<SwapsEnv> = (c, next) =>
    swaps.inbound ? next() : guard.requireScope('write')(c, next);

  app.post('/v1/webhooks/transaction-complete', authenticate, async (c) => {
    // The swaps' body limit has held this body to MAX_NOTIFICATION_BYTES before it was read.
    const raw = await c.req.text();
    let webhookId = c.req.header('webhook-id');
    if (swaps.inbound) {
      const verified = swaps.inbound.verify(raw, {
        'webhook-id': c.req.header('webhook-id'),
        'webhook-timestamp': c.req.header('webhook-timestamp'),
        'webhook-signature': c.req.header('webhook-signature'),
      });
      if (!verified.ok) {
        const code = verified.reason === 'missing_headers' ? 'INVALID_INPUT' : 'WEBHOOK_SIGNATURE_INVALID';
        throw new DomainHttpError(domainError(code, verified.message));
      }
      webhookId = verified.id;
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw new DomainHttpError(
        domainError('INVALID_INPUT', 'invalid notification payload: the body is not JSON'),
      );
    }
    const claims = await unwrap(parseCompletionPayload(body));
    const out = await unwrap(
      transactionComplete(swaps.deps, {
        ...(webhookId ? { webhookId: webhookId.slice(0, 256) } : {}),
        claims,
      }),
    );
    return okB(c, { received: true, duplicate: out.duplicate, results: out.results });
  });
}
