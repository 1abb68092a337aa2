import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { ZodType } from 'zod';

/**
 * The Standard Webhooks headers every outbound event carries (swap.* and transaction.*), declared
 * once; what differs is an example id and where the receiver gets the secret from.
 */
export function standardWebhookHeaders(options: { readonly idExample: string; readonly secretFrom: string }) {
  return z.object({
    'webhook-id': z.string().openapi({
      param: { name: 'webhook-id', in: 'header' },
      description: 'Unique per event and stable across retries: deduplicate on it',
      example: options.idExample,
    }),
    'webhook-timestamp': z.string().openapi({
      param: { name: 'webhook-timestamp', in: 'header' },
      description: 'Unix seconds of this attempt; reject it when more than 5 minutes off',
      example: '1735732800',
    }),
    'webhook-signature': z.string().openapi({
      param: { name: 'webhook-signature', in: 'header' },
      description: `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}"> with ${options.secretFrom}`,
      example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    }),
  });
}

/**
 * Declares one outbound event as an OpenAPI webhook: who it is POSTed to, its body, the Standard
 * Webhooks headers, and what the receiver's answer means (a 2xx ends it, anything else retries).
 */
export function registerOutboundEvent(
  registry: OpenAPIHono['openAPIRegistry'],
  event: {
    readonly type: string;
    readonly operationId: string;
    readonly tag: string;
    readonly summary: string;
    /** Who receives it, as the start of a sentence ("POSTed to ..."). */
    readonly recipients: string;
    readonly headers: ReturnType<typeof standardWebhookHeaders>;
    readonly schema: ZodType;
  },
): void {
  registry.registerWebhook({
    method: 'post',
    path: event.type,
    operationId: event.operationId,
    tags: [event.tag],
    security: [{ standardWebhooks: [] }],
    summary: event.summary,
    description: `${event.recipients} (Content-Type: application/json). Answer 2xx within 10 s; any other answer or a timeout is retried with exponential backoff and jitter, with the same webhook-id, until the attempts run out.`,
    request: {
      headers: event.headers,
      body: { required: true, content: { 'application/json': { schema: event.schema } } },
    },
    responses: {
      200: { description: 'Received (any 2xx); the event is not sent again' },
      500: { description: 'Any other status, or no answer: the event is sent again later' },
    },
  });
}
