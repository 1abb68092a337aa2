import { z } from '@hono/zod-openapi';
import {
  type ClockPort,
  type OutboundUrlPolicy,
  TRANSACTION_EVENT_TYPES,
  type WebhookEndpoint,
  type WebhookEndpointStore,
  type WebhookStore,
} from '@token-actions/core';

/**
 * What the tenant's and the operator's webhook endpoint routes need: the endpoints, the SSRF
 * guard, the delivery queue and the signing secrets.
 */
export interface WebhookEndpointServices {
  readonly store: WebhookEndpointStore;
  readonly outbound: OutboundUrlPolicy;
  /** The delivery queue: deleting an endpoint ends its pending deliveries. */
  readonly deliveries: WebhookStore;
  secretFor(endpointId: string): string;
}

export const ENDPOINT_ID_EXAMPLE = 'we_8kQz2mVb7RtYc4Xn';

/** The ports of core's webhook endpoint use-cases, from the services and the clock. */
export function endpointDeps(webhooks: WebhookEndpointServices, clock: ClockPort) {
  return { endpoints: webhooks.store, outbound: webhooks.outbound, webhooks: webhooks.deliveries, clock };
}

export const WebhookEndpointSchema = z
  .object({
    id: z.string().openapi({ example: ENDPOINT_ID_EXAMPLE }),
    tenant: z.string().openapi({ example: 'acme' }),
    url: z.string().openapi({ example: 'https://hooks.example.com/token-actions' }),
    description: z.string().nullable().openapi({ example: 'order service' }),
    events: z
      .array(z.enum(TRANSACTION_EVENT_TYPES as [string, ...string[]]))
      .openapi({ description: 'The events the endpoint receives', example: [...TRANSACTION_EVENT_TYPES] }),
    createdAt: z.string().openapi({ format: 'date-time', example: '2025-01-01T12:00:00.000Z' }),
  })
  .openapi('WebhookEndpoint');

export const CreatedWebhookEndpointSchema = WebhookEndpointSchema.extend({
  secret: z.string().openapi({
    description:
      'The Standard Webhooks signing secret of this endpoint: shown this once. To rotate, register a new endpoint and delete this one.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  }),
}).openapi('CreatedWebhookEndpoint');

export const WebhookEndpointList = z
  .object({ webhooks: z.array(WebhookEndpointSchema) })
  .openapi('WebhookEndpointList');

export const DeletedWebhookEndpoint = z
  .object({ id: z.string().openapi({ example: ENDPOINT_ID_EXAMPLE }), deleted: z.literal(true) })
  .openapi('DeletedWebhookEndpoint');

export const endpointIdParam = z.object({
  id: z.string().openapi({
    param: { name: 'id', in: 'path' },
    description: 'The endpoint id, from its registration',
    example: ENDPOINT_ID_EXAMPLE,
  }),
});

export function endpointJson(e: WebhookEndpoint): z.infer<typeof WebhookEndpointSchema> {
  return {
    id: e.id,
    tenant: e.tenant,
    url: e.url,
    description: e.description ?? null,
    events: [...TRANSACTION_EVENT_TYPES],
    createdAt: e.createdAt.toISOString(),
  };
}
