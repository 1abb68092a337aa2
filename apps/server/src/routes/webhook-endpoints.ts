import { type OpenAPIHono, z } from '@hono/zod-openapi';
import {
  type OutboundUrlPolicy,
  TRANSACTION_EVENT_STATUSES,
  TRANSACTION_EVENT_TYPES,
  TRANSACTION_KINDS,
  TX_STATUSES,
  type WebhookEndpoint,
  type WebhookEndpointStore,
  type WebhookStore,
} from '@token-actions/core';
import { registerOutboundEvent, standardWebhookHeaders } from './outbound-events.js';
import { SIGNATURE_EXAMPLE } from './schemas.js';

/** What the interface A and admin webhook routes need: the endpoints, the SSRF guard, the signing secrets. */
export interface WebhookEndpointServices {
  readonly store: WebhookEndpointStore;
  readonly outbound: OutboundUrlPolicy;
  /** The delivery queue: deleting an endpoint ends its pending deliveries. */
  readonly deliveries: WebhookStore;
  secretFor(endpointId: string): string;
}

const ENDPOINT_ID_EXAMPLE = 'we_8kQz2mVb7RtYc4Xn';

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

const headers = standardWebhookHeaders({
  idExample: `msg_${ENDPOINT_ID_EXAMPLE}_1042`,
  secretFrom: 'the secret returned when the endpoint was registered',
});

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function eventSchema(status: (typeof TRANSACTION_EVENT_STATUSES)[number]) {
  return z
    .object({
      type: z.literal(`transaction.${status}`),
      timestamp: z.string().openapi({
        format: 'date-time',
        description: 'When the status changed',
        example: '2025-01-01T12:00:00.000Z',
      }),
      data: z.object({
        transactionId: z.string().openapi({ example: SIGNATURE_EXAMPLE }),
        kind: z.enum(TRANSACTION_KINDS).openapi({ example: 'donation' }),
        status: z.literal(status),
        previousStatus: z.enum(TX_STATUSES).openapi({ example: 'pending' }),
        slot: z.string().optional().openapi({ description: 'The slot it landed in', example: '1038' }),
        error: z.string().optional().openapi({ example: 'InstructionError: insufficient funds' }),
      }),
    })
    .openapi(`TransactionEvent${capitalised(status)}`, {
      description: `Sent when a transaction becomes ${status}`,
    });
}

/** Declares the outbound `transaction.*` events (core's `transactionEventPayload`) as OpenAPI webhooks. */
export function registerTransactionEvents(registry: OpenAPIHono['openAPIRegistry']): void {
  for (const status of TRANSACTION_EVENT_STATUSES) {
    registerOutboundEvent(registry, {
      type: `transaction.${status}`,
      operationId: `transaction${capitalised(status)}Event`,
      tag: 'Webhook endpoint',
      summary: `transaction.${status}: a tenant's transaction became ${status}`,
      recipients: "POSTed to every endpoint the transaction's tenant registered",
      headers,
      schema: eventSchema(status),
    });
  }
}
