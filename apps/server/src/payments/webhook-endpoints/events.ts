import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { TRANSACTION_EVENT_STATUSES, TRANSACTION_KINDS, TX_STATUSES } from '@token-actions/core';
import { SIGNATURE_EXAMPLE } from '../../docs/components.js';
import { registerOutboundEvent, standardWebhookHeaders } from '../../docs/outbound-events.js';
import { ENDPOINT_ID_EXAMPLE } from './schemas.js';

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
