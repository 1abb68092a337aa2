import { createRoute, z } from '@hono/zod-openapi';
import type { SwapComposition } from '@token-actions/runtime/edge';
import { principalOf, type SwapsGuard } from './guard.js';
import type { SwapsApp } from './guarded-app.js';
import { bearerSecurity, errorsB, RateLimit } from './openapi.js';
import { okB } from './render.js';

const WebhookSecretResponse = z
  .object({
    clientId: z.string().openapi({ example: 'demo-client' }),
    secret: z.string().openapi({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
    scheme: z.literal('Standard Webhooks v1 (HMAC-SHA256)'),
    rateLimit: RateLimit,
  })
  .openapi('WebhookSecretResponse');

const webhookSecretRoute = createRoute({
  method: 'get',
  path: '/v1/webhooks/secret',
  operationId: 'getWebhookSecret',
  'x-use-case': 'webhookSecretFor',
  tags: ['Webhook'],
  summary: "The Standard Webhooks secret this client's notifications are signed with",
  security: bearerSecurity('write'),
  responses: {
    200: {
      description: 'Signing secret',
      content: { 'application/json': { schema: WebhookSecretResponse } },
    },
    ...errorsB,
  },
});

export function registerWebhookSecret(app: SwapsApp, guard: SwapsGuard, swaps: SwapComposition): void {
  app.openapi({ ...webhookSecretRoute, middleware: [guard.requireScope('write')] as const }, (c) => {
    const { clientId } = principalOf(c);
    return okB(c, {
      clientId,
      secret: swaps.webhookSecretFor(clientId),
      scheme: 'Standard Webhooks v1 (HMAC-SHA256)' as const,
    });
  });
}
