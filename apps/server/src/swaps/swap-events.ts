import { type OpenAPIHono, z } from '@hono/zod-openapi';
import {
  SWAP_SOURCES,
  type SwapStatus as SwapStatusValue,
  type TxStatus,
  tokenPairField,
} from '@token-actions/core';
import { KEY_EXAMPLE, SIGNATURE_EXAMPLE } from '../docs/components.js';
import { registerOutboundEvent, standardWebhookHeaders } from '../docs/outbound-events.js';
import { SwapStatus } from './openapi.js';

/**
 * The events the service sends (OpenAPI 3.1 `webhooks`): one per swap reaching a terminal status,
 * POSTed to the client's registered `webhook_url`, signed with Standard Webhooks. The payload is
 * core's `swapEventPayload`; the OpenAPI test checks a real one against this declaration.
 */

/** The terminal swap statuses, each with the status its transaction reached (core's payload). */
const transactionStatus = {
  landed: 'finalized',
  failed: 'failed',
  expired: 'expired',
} as const satisfies Partial<Record<SwapStatusValue, TxStatus>>;
type TerminalStatus = keyof typeof transactionStatus;
const TERMINAL = Object.keys(transactionStatus) as TerminalStatus[];

const headers = standardWebhookHeaders({
  idExample: 'msg_swp_01J9Z3_landed',
  secretFrom: 'the secret of GET /v1/webhooks/secret',
});

function eventSchema(status: TerminalStatus) {
  const type = `swap.${status}` as const;
  return z
    .object({
      type: z.literal(type),
      timestamp: z.string().openapi({ format: 'date-time', example: '2025-01-01T12:00:00.000Z' }),
      data: z.object({
        requestId: z.string().openapi({ example: 'swp_01J9Z3' }),
        status: SwapStatus,
        transactionStatus: z.literal(transactionStatus[status]),
        transactionId: z.string().optional().openapi({ example: SIGNATURE_EXAMPLE }),
        source: z.enum(SWAP_SOURCES).openapi({ example: 'project' }),
        tokenPair: tokenPairField,
        account: z.string().openapi({ description: 'The wallet that swapped', example: KEY_EXAMPLE }),
        inAmount: z.string().openapi({ description: 'Base units of the input token', example: '1500000000' }),
        outAmount: z
          .string()
          .openapi({ description: 'Base units of the output token', example: '224101570' }),
        error: z.string().optional().openapi({ example: 'the blockhash expired before the swap landed' }),
      }),
    })
    .openapi(`SwapEvent${status.charAt(0).toUpperCase()}${status.slice(1)}`, {
      description: `Sent once the swap is ${status}`,
    });
}

export const SWAP_EVENT_TYPES = TERMINAL.map((status) => `swap.${status}`);

/** Declares the outbound `swap.*` events as OpenAPI webhooks. */
export function registerSwapEvents(registry: OpenAPIHono['openAPIRegistry']): void {
  for (const status of TERMINAL) {
    registerOutboundEvent(registry, {
      type: `swap.${status}`,
      operationId: `swap${status.charAt(0).toUpperCase()}${status.slice(1)}Event`,
      tag: 'Webhook',
      summary: `swap.${status}: a swap reached ${status}`,
      recipients: 'POSTed to the webhook_url of the client that requested the swap',
      headers,
      schema: eventSchema(status),
    });
  }
}
