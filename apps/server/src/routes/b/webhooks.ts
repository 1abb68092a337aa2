import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { domainError, parseCompletionPayload, transactionComplete } from '@token-actions/core';
import type { MiddlewareHandler } from 'hono';
import { type InterfaceBGuard, principalOf } from '../../interface-b/index.js';
import type { Logger } from '../../logger.js';
import type { SwapComposition } from '../../swaps.js';
import { bearerSecurity, ErrorB, errorB, errorsB, extraError, RateLimit, settle } from './common.js';

const MAX_NOTIFICATION_BYTES = 256 * 1024;

const CompletionBody = z
  .union([
    z.object({
      transactionId: z.string(),
      status: z.string().openapi({
        description: 'What the sender claims: processed, confirmed, finalized, failed or expired',
      }),
      slot: z.number().int().optional(),
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
    duplicate: z.boolean(),
    results: z.array(
      z.object({
        transactionId: z.string(),
        claimed: z.string().optional(),
        status: z
          .string()
          .openapi({ description: 'The status after re-checking the chain; unknown if never seen' }),
        swapRequestId: z.string().optional(),
        swapStatus: z.string().optional(),
      }),
    ),
    rateLimit: RateLimit,
  })
  .openapi('TransactionCompleteResponse');

/** POST /v1/webhooks/transaction-complete and GET /v1/webhooks/secret. */
export function registerWebhookRoutes(
  app: OpenAPIHono,
  guard: InterfaceBGuard,
  swaps: SwapComposition,
  logger: Logger,
) {
  const path = '/v1/webhooks/transaction-complete';
  // With WEBHOOK_SECRET the Standard Webhooks signature is the credential (a notifier cannot run
  // an OAuth flow); without one the caller needs an OAuth token with the write scope.
  const authenticate: MiddlewareHandler = (c, next) =>
    swaps.inbound ? next() : guard.requireScope('write')(c as never, next);

  app.openAPIRegistry.registerPath({
    method: 'post',
    path,
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
      401: {
        description: 'Bad or stale signature, or no valid token',
        content: { 'application/json': { schema: ErrorB } },
      },
      ...extraError(413, 'Body too large'),
    },
  });

  app.post(path, authenticate, async (c) => {
    const raw = await c.req.text();
    if (raw.length > MAX_NOTIFICATION_BYTES) {
      return c.json(
        { code: 'INVALID_INPUT', message: `notification exceeds ${MAX_NOTIFICATION_BYTES} bytes` },
        413,
      );
    }
    let webhookId = c.req.header('webhook-id');
    if (swaps.inbound) {
      const verified = swaps.inbound.verify(raw, {
        'webhook-id': c.req.header('webhook-id'),
        'webhook-timestamp': c.req.header('webhook-timestamp'),
        'webhook-signature': c.req.header('webhook-signature'),
      });
      if (!verified.ok) {
        return verified.reason === 'missing_headers'
          ? errorB(c, domainError('INVALID_INPUT', verified.message))
          : errorB(c, domainError('WEBHOOK_SIGNATURE_INVALID', verified.message));
      }
      webhookId = verified.id;
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return errorB(c, domainError('INVALID_INPUT', 'invalid notification payload: the body is not JSON'));
    }
    const claims = parseCompletionPayload(body);
    if (claims.isErr()) return errorB(c, claims.error);
    return settle(
      c,
      transactionComplete(swaps.deps, {
        ...(webhookId ? { webhookId: webhookId.slice(0, 256) } : {}),
        claims: claims.value,
      }),
      (out) => c.json({ received: true, duplicate: out.duplicate, results: out.results }, 200),
      (e) => logger.error({ code: e.code, context: e.context }, 'transaction-complete failed'),
    );
  });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/webhooks/secret',
      tags: ['Webhook'],
      summary: "The Standard Webhooks secret this client's notifications are signed with",
      security: bearerSecurity('write'),
      middleware: [guard.requireScope('write')] as const,
      responses: {
        200: {
          description: 'Signing secret',
          content: {
            'application/json': {
              schema: z.object({
                clientId: z.string(),
                secret: z.string(),
                scheme: z.string(),
                rateLimit: RateLimit,
              }),
            },
          },
        },
        ...errorsB,
      },
    }),
    (c) => {
      const { clientId } = principalOf(c);
      return c.json(
        {
          clientId,
          secret: swaps.webhookSecretFor(clientId),
          scheme: 'Standard Webhooks v1 (HMAC-SHA256)',
        } as never,
        200,
      );
    },
  );
}
