import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { type DomainError, domainError, type WebhookSenderPort } from '@token-actions/core';
import { ResultAsync } from 'neverthrow';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { hmacSha256 } from '../crypto/derive.js';
import type { OutboundGuard } from './outbound-guard.js';

/** Five minutes either way, as the Standard Webhooks spec recommends. */
export const WEBHOOK_TOLERANCE_SEC = 5 * 60;

export type WebhookVerification =
  | { readonly ok: true; readonly id: string; readonly timestamp: Date }
  | {
      readonly ok: false;
      readonly reason: 'missing_headers' | 'stale_timestamp' | 'bad_signature';
      readonly message: string;
    };

/**
 * Standard Webhooks signing and verification (the `standardwebhooks` reference library):
 * HMAC-SHA256 over `id.timestamp.body`, `webhook-signature: v1,<base64>`, 5-minute tolerance.
 * `secret` is `whsec_<base64>` (or bare base64).
 */
export function createStandardWebhook(secret: string) {
  const webhook = new Webhook(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  return {
    sign(id: string, at: Date, body: string): Record<string, string> {
      return {
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': webhook.sign(id, at, body),
      };
    },
    /** Verifies raw body + headers. The library checks the timestamp against the real clock. */
    verify(body: string, headers: Record<string, string | undefined>): WebhookVerification {
      const id = headers['webhook-id'];
      const ts = headers['webhook-timestamp'];
      const sig = headers['webhook-signature'];
      if (!id || !ts || !sig) {
        return {
          ok: false,
          reason: 'missing_headers',
          message: 'webhook-id, webhook-timestamp and webhook-signature headers are required',
        };
      }
      try {
        webhook.verify(body, { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': sig });
        return { ok: true, id, timestamp: new Date(Number(ts) * 1000) };
      } catch (error) {
        const message = error instanceof WebhookVerificationError ? error.message : 'invalid signature';
        if (/timestamp/i.test(message)) {
          return {
            ok: false,
            reason: 'stale_timestamp',
            message: 'webhook-timestamp is outside the 5 minute tolerance',
          };
        }
        if (/header/i.test(message))
          return { ok: false, reason: 'missing_headers', message: 'webhook headers are malformed' };
        return {
          ok: false,
          reason: 'bad_signature',
          message: 'webhook-signature does not match the payload',
        };
      }
    },
  };
}

/** A per-client signing secret derived from one service key: nothing to store, easy to rotate with the key. */
export function deriveClientWebhookSecret(serviceKey: Uint8Array, clientId: string): string {
  const raw = hmacSha256(serviceKey, `webhook-signing/${clientId}`);
  return `whsec_${Buffer.from(raw).toString('base64')}`;
}

export interface WebhookSenderConfig {
  /** The SSRF guard: checks each delivery's URL and pins its connection to the checked address. */
  readonly guard: OutboundGuard;
  /** The signing secret of a client (`whsec_...`). */
  readonly secretFor: (clientId: string) => string;
  readonly timeoutMs?: number;
  readonly userAgent?: string;
}

/**
 * POSTs a delivery with Standard Webhooks headers; any HTTP answer is a result, a network failure
 * or a refused target an error. node:http(s) rather than fetch, because its `lookup` hook is what
 * lets the guard hand the socket the very address it checked. Redirects are not followed.
 */
export function createWebhookSender(config: WebhookSenderConfig): WebhookSenderPort {
  return {
    send(delivery) {
      const headers = createStandardWebhook(config.secretFor(delivery.clientId)).sign(
        delivery.id,
        delivery.timestamp,
        delivery.payload,
      );
      return config.guard.check(delivery.url).andThen(() =>
        ResultAsync.fromPromise(
          post(delivery.url, delivery.payload, {
            headers: {
              'content-type': 'application/json',
              'user-agent': config.userAgent ?? 'token-actions-webhooks/1',
              ...headers,
            },
            lookup: config.guard.lookup,
            timeoutMs: config.timeoutMs ?? 10_000,
          }),
          (cause): DomainError =>
            domainError('INTERNAL', 'the webhook receiver could not be reached', { cause }),
        ),
      );
    },
  };
}

function post(
  url: string,
  body: string,
  options: { headers: Record<string, string>; lookup: LookupFunction; timeoutMs: number },
): Promise<{ statusCode: number }> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        method: 'POST',
        headers: { ...options.headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: options.lookup,
        timeout: options.timeoutMs,
        // One connection per delivery: a pooled socket could outlive the address check.
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0 }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
