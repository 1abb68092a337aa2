import type { ResultAsync } from 'neverthrow';
import type { DomainError } from '../errors.js';

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'dead';

/** One notification to one client URL, retried with backoff until delivered or out of attempts. */
export interface WebhookDelivery {
  /** Also the Standard Webhooks `webhook-id`: the same across retries, so receivers can dedupe. */
  readonly id: string;
  readonly clientId: string;
  readonly url: string;
  readonly eventType: string;
  /** The exact JSON body that is signed and sent. */
  readonly payload: string;
  readonly status: WebhookDeliveryStatus;
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly nextAttemptAt: Date;
  readonly lastError?: string;
  readonly lastStatusCode?: number;
  readonly deliveredAt?: Date;
  readonly createdAt: Date;
}

export type NewWebhookDelivery = Pick<
  WebhookDelivery,
  'id' | 'clientId' | 'url' | 'eventType' | 'payload' | 'maxAttempts' | 'nextAttemptAt' | 'createdAt'
>;

export type DeliveryAttempt =
  | { readonly delivered: true; readonly statusCode: number }
  | {
      readonly delivered: false;
      readonly statusCode?: number;
      readonly error: string;
      /** When to try again; absent when the attempts are spent (the delivery is dead). */
      readonly nextAttemptAt?: Date;
    };

export interface WebhookStore {
  /** Remembers an inbound `webhook-id`; true only the first time it is seen. */
  recordInbound(webhookId: string, receivedAt: Date): ResultAsync<boolean, DomainError>;
  /** Queues a delivery; a delivery with the same id is kept as it is (returns false). */
  enqueue(delivery: NewWebhookDelivery): ResultAsync<boolean, DomainError>;
  /** Pending deliveries due at `now`, oldest first; each is leased for `leaseMs` (its next attempt
   * moves to now + leaseMs) so concurrent workers never send one twice at once. */
  claimDue(now: Date, limit: number, leaseMs: number): ResultAsync<readonly WebhookDelivery[], DomainError>;
  recordAttempt(id: string, attempt: DeliveryAttempt, at: Date): ResultAsync<void, DomainError>;
  get(id: string): ResultAsync<WebhookDelivery | null, DomainError>;
  /** Ends every pending delivery signed as `clientId` (its endpoint is gone); returns how many. */
  cancelPending(clientId: string, reason: string): ResultAsync<number, DomainError>;
}

/** Sends one signed delivery (Standard Webhooks headers); resolves with the receiver's status. */
export interface WebhookSenderPort {
  send(delivery: {
    readonly id: string;
    readonly url: string;
    readonly clientId: string;
    readonly payload: string;
    readonly timestamp: Date;
  }): ResultAsync<{ readonly statusCode: number }, DomainError>;
}
