import { err, errAsync, ok, type Result, type ResultAsync, safeTry } from 'neverthrow';
import { z } from 'zod';
import { parseTenantId, type TenantId } from '../../domain/tenant.js';
import type { TxStatus } from '../../domain/transaction.js';
import { type DomainError, domainError } from '../../errors.js';
import { randomId } from '../../oauth/secrets.js';
import type { ClockPort } from '../../ports/clock.js';
import type { OutboundUrlPolicy } from '../../ports/outbound.js';
import type { StorePort } from '../../ports/store.js';
import type {
  TransactionStatusEvent,
  WebhookEndpoint,
  WebhookEndpointStore,
} from '../../ports/webhook-endpoints.js';
import type { WebhookStore } from '../../ports/webhooks.js';

/** The statuses a transaction can move to, each announced as `transaction.<status>`. */
export const TRANSACTION_EVENT_STATUSES = [
  'processed',
  'confirmed',
  'finalized',
  'failed',
  'expired',
] as const satisfies readonly TxStatus[];
export const TRANSACTION_EVENT_TYPES = TRANSACTION_EVENT_STATUSES.map((s) => `transaction.${s}` as const);

/** Enough for production, staging and an audit sink; a cap keeps one tenant from fanning out without bound. */
export const MAX_ENDPOINTS_PER_TENANT = 10;
const MAX_URL_LENGTH = 2048;

/**
 * The name deliveries to an endpoint are signed under. The composition derives the secret from it
 * with a key of its own, apart from OAuth clients' secrets, so no client id can ask for it.
 */
export const ENDPOINT_SIGNER_PREFIX = 'endpoint:';
export const endpointSigner = (endpointId: string) => `${ENDPOINT_SIGNER_PREFIX}${endpointId}`;

export const CreateWebhookEndpointRequest = z
  .strictObject({
    url: z.string().meta({
      description:
        'Where status changes are POSTed: an absolute https (or http) URL whose host resolves to public addresses only',
      example: 'https://hooks.example.com/token-actions',
    }),
    description: z
      .string()
      .optional()
      .meta({ description: 'What the endpoint is for (up to 128 characters)', example: 'order service' }),
  })
  .meta({ id: 'CreateWebhookEndpointRequest' });
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequest>;

export const AdminCreateWebhookEndpointRequest = CreateWebhookEndpointRequest.extend({
  tenant: z
    .string()
    .meta({ description: 'The tenant the endpoint belongs to; it must exist', example: 'acme' }),
}).meta({ id: 'AdminCreateWebhookEndpointRequest' });
export type AdminCreateWebhookEndpointRequest = z.infer<typeof AdminCreateWebhookEndpointRequest>;

export interface WebhookEndpointDeps {
  readonly endpoints: WebhookEndpointStore;
  /** The SSRF guard: a URL is checked against what its host resolves to now. */
  readonly outbound: OutboundUrlPolicy;
  readonly clock: ClockPort;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

function parseEndpointUrl(value: unknown): Result<string, DomainError> {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URL_LENGTH) {
    return err(domainError('INVALID_INPUT', `url must be 1-${MAX_URL_LENGTH} characters`));
  }
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return err(domainError('INVALID_INPUT', 'url must be an absolute URL'));
  }
  // Credentials in a URL would be listed back to anyone holding the tenant's key.
  if (parsed.username || parsed.password) {
    return err(domainError('INVALID_INPUT', 'url must not carry credentials (user:password@)'));
  }
  return ok(value);
}

/** Endpoint ids as `randomId('we_')` makes them; anything else names no endpoint (and never reaches the store). */
const ENDPOINT_ID = /^we_[0-9a-z]{1,64}$/;

const notFound = (id: string) =>
  domainError('WEBHOOK_ENDPOINT_NOT_FOUND', `webhook endpoint ${id.slice(0, 64)} does not exist`);

/**
 * Registers an endpoint for a tenant after the SSRF guard passed its URL. The tenant's own key
 * and the operator (for any existing tenant) both come here.
 */
export function createWebhookEndpoint(
  deps: WebhookEndpointDeps,
  input: { readonly tenant: TenantId; readonly url: unknown; readonly description?: unknown },
): ResultAsync<WebhookEndpoint, DomainError> {
  return safeTry(async function* () {
    const url = yield* parseEndpointUrl(input.url);
    const description = input.description;
    if (
      description !== undefined &&
      (typeof description !== 'string' || description.length > 128 || CONTROL.test(description))
    ) {
      return err(
        domainError('INVALID_INPUT', 'description must be up to 128 characters without control characters'),
      );
    }
    yield* deps.outbound.check(url);
    const existing = yield* deps.endpoints.list(input.tenant);
    if (existing.length >= MAX_ENDPOINTS_PER_TENANT) {
      return err(
        domainError(
          'INVALID_INPUT',
          `a tenant may register at most ${MAX_ENDPOINTS_PER_TENANT} webhook endpoints`,
        ),
      );
    }
    const endpoint: WebhookEndpoint = {
      id: randomId('we_'),
      tenant: input.tenant,
      url,
      ...(description ? { description } : {}),
      createdAt: deps.clock.now(),
    };
    yield* deps.endpoints.create(endpoint);
    return ok(endpoint);
  });
}

/** The operator's registration: the named tenant must exist (404 otherwise, as for its keys). */
export function createWebhookEndpointForTenant(
  deps: WebhookEndpointDeps & { readonly store: Pick<StorePort, 'tenants'> },
  input: { readonly tenant: unknown; readonly url: unknown; readonly description?: unknown },
): ResultAsync<WebhookEndpoint, DomainError> {
  return safeTry(async function* () {
    const tenant = yield* parseTenantId(input.tenant);
    if (!(yield* deps.store.tenants.get(tenant))) {
      return err(domainError('TENANT_NOT_FOUND', `tenant ${tenant} does not exist`));
    }
    return createWebhookEndpoint(deps, { ...input, tenant });
  });
}

export function listWebhookEndpoints(
  deps: Pick<WebhookEndpointDeps, 'endpoints'>,
  input: { readonly tenant: TenantId },
): ResultAsync<readonly WebhookEndpoint[], DomainError> {
  return deps.endpoints.list(input.tenant);
}

/** Another tenant's endpoint is not found, with the message of an unknown id. */
export function getWebhookEndpoint(
  deps: Pick<WebhookEndpointDeps, 'endpoints'>,
  input: { readonly tenant: TenantId; readonly id: string },
): ResultAsync<WebhookEndpoint, DomainError> {
  if (!ENDPOINT_ID.test(input.id)) return errAsync(notFound(input.id));
  return deps.endpoints
    .get(input.id, input.tenant)
    .andThen((found) => (found ? ok(found) : err(notFound(input.id))));
}

/**
 * Deletes the tenant's endpoint, then ends the deliveries still queued for it: a tenant deletes an
 * endpoint it no longer controls, which must not keep receiving retries.
 */
export function deleteWebhookEndpoint(
  deps: Pick<WebhookEndpointDeps, 'endpoints'> & { readonly webhooks: Pick<WebhookStore, 'cancelPending'> },
  input: { readonly tenant: TenantId; readonly id: string },
): ResultAsync<{ readonly cancelledDeliveries: number }, DomainError> {
  if (!ENDPOINT_ID.test(input.id)) return errAsync(notFound(input.id));
  return deps.endpoints
    .remove(input.id, input.tenant)
    .andThen((removed) => (removed ? ok(undefined) : err(notFound(input.id))))
    .andThen(() => deps.webhooks.cancelPending(endpointSigner(input.id), 'the webhook endpoint was deleted'))
    .map((cancelledDeliveries) => ({ cancelledDeliveries }));
}

/** The body of a status-change notification (Standard Webhooks' `{type, timestamp, data}`). */
export function transactionEventPayload(event: TransactionStatusEvent): { type: string; payload: string } {
  const type = `transaction.${event.to}`;
  return {
    type,
    payload: JSON.stringify({
      type,
      timestamp: event.at.toISOString(),
      data: {
        transactionId: event.transactionId,
        kind: event.kind,
        status: event.to,
        previousStatus: event.from,
        ...(event.slot !== undefined ? { slot: event.slot.toString() } : {}),
        ...(event.error !== undefined ? { error: event.error } : {}),
      },
    }),
  };
}

/**
 * Turns status changes from the outbox into deliveries, one per endpoint of the transaction's
 * tenant, then marks the changes published. A delivery's id (its `webhook-id`) is derived from
 * the endpoint and the change, so a pass re-run after a crash between the two steps queues
 * nothing twice, and every retry of one delivery carries the same id.
 */
export function publishTransactionEvents(
  deps: {
    readonly endpoints: WebhookEndpointStore;
    readonly webhooks: Pick<WebhookStore, 'enqueue'>;
    readonly clock: ClockPort;
    readonly maxAttempts: number;
  },
  options: {
    /** Changes read and marked at once. */
    readonly limit?: number;
    /** Pages one call works through at most, while each comes back full. */
    readonly pages?: number;
  } = {},
): ResultAsync<{ events: number; queued: number }, DomainError> {
  const limit = Math.max(1, options.limit ?? 500);
  const pages = Math.max(1, options.pages ?? 20);
  return safeTry(async function* () {
    const byTenant = new Map<TenantId, readonly WebhookEndpoint[]>();
    const total = { events: 0, queued: 0 };
    // Page after page while they come back full: two status changes a donation at hundreds of
    // donations a second outran one page a pass, and the backlog (with every tenant's
    // notifications behind it) grew for as long as the load lasted.
    for (let page = 0; page < pages; page++) {
      const events = yield* deps.endpoints.listUnpublished(limit);
      if (events.length === 0) break;
      const now = deps.clock.now();
      for (const event of events) {
        let targets = byTenant.get(event.tenant);
        if (!targets) {
          targets = yield* deps.endpoints.list(event.tenant);
          byTenant.set(event.tenant, targets);
        }
        if (targets.length === 0) continue;
        const body = transactionEventPayload(event);
        for (const endpoint of targets) {
          const fresh = yield* deps.webhooks.enqueue({
            id: `msg_${endpoint.id}_${event.sequence}`,
            clientId: endpointSigner(endpoint.id),
            url: endpoint.url,
            eventType: body.type,
            payload: body.payload,
            maxAttempts: deps.maxAttempts,
            nextAttemptAt: now,
            createdAt: now,
          });
          if (fresh) total.queued++;
        }
      }
      yield* deps.endpoints.markPublished(
        events.map((e) => e.sequence),
        now,
      );
      total.events += events.length;
      if (events.length < limit) break;
    }
    return ok(total);
  });
}
