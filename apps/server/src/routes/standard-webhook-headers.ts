import { z } from '@hono/zod-openapi';

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
