import type { ResultAsync } from 'neverthrow';
import type { Signature } from '../domain/public-key.js';
import type { TenantId } from '../domain/tenant.js';
import type { TransactionKind, TxStatus } from '../domain/transaction.js';
import type { DomainError } from '../errors.js';

/** A URL a tenant asked to receive its transactions' status changes at (interface A webhooks). */
export interface WebhookEndpoint {
  /** `we_` and random characters; also names the endpoint's signing secret. */
  readonly id: string;
  /** Only this tenant reads, lists or deletes it; to any other it does not exist. */
  readonly tenant: TenantId;
  readonly url: string;
  readonly description?: string;
  readonly createdAt: Date;
}

/**
 * One status change of a transaction, read from the outbox the store writes in the same statement
 * as the change itself (`transaction_events`), with what a notification needs of the transaction.
 */
export interface TransactionStatusEvent {
  /** Ascending in the order the changes were made; never reused. Part of the delivery id. */
  readonly sequence: string;
  readonly tenant: TenantId;
  readonly transactionId: Signature;
  readonly kind: TransactionKind;
  readonly from: TxStatus;
  readonly to: TxStatus;
  readonly at: Date;
  readonly slot?: bigint;
  readonly error?: string;
}

export interface WebhookEndpointStore {
  /** The tenant must exist. */
  create(endpoint: WebhookEndpoint): ResultAsync<void, DomainError>;
  /** The tenant's endpoints, oldest first. */
  list(tenant: TenantId): ResultAsync<readonly WebhookEndpoint[], DomainError>;
  /** Null for an unknown id and for another tenant's endpoint alike. */
  get(id: string, tenant: TenantId): ResultAsync<WebhookEndpoint | null, DomainError>;
  /** Whether it was the tenant's and is now gone. */
  remove(id: string, tenant: TenantId): ResultAsync<boolean, DomainError>;
  /** Status changes not yet turned into deliveries, oldest first. */
  listUnpublished(limit: number): ResultAsync<readonly TransactionStatusEvent[], DomainError>;
  /** Marks changes as turned into deliveries; marking one twice is harmless. */
  markPublished(sequences: readonly string[], at: Date): ResultAsync<void, DomainError>;
}
