import type {
  ActionDeps,
  OAuthStore,
  OutboundUrlPolicy,
  RateLimiterPort,
  WebhookEndpointStore,
  WebhookStore,
} from '@token-actions/core';
import type { ServerMetrics } from './observability/metrics.js';
import type { SwapComposition } from './swaps.js';

/** One probe per dependency of `/readyz`: resolves when it answers, rejects (or hangs) when not. */
export interface ReadinessProbes {
  readonly database: () => Promise<unknown>;
  readonly chain: () => Promise<unknown>;
}

/** Tenants' webhook endpoints: their store, the URL guard, the delivery queue, their secrets. */
export interface TenantWebhookParts {
  readonly store: WebhookEndpointStore;
  readonly outbound: OutboundUrlPolicy;
  /** Deleting an endpoint ends its pending deliveries. */
  readonly deliveries: WebhookStore;
  secretFor(endpointId: string): string;
}

/**
 * What a process composes for the HTTP app, whichever runtime serves it; the server maps it to
 * the app's settings in one function for every entry. Optional parts are what a process shape
 * does not offer (an edge isolate has no metrics registry, no readiness probes and delivers no
 * tenant webhooks).
 */
export interface AppParts {
  readonly deps: ActionDeps;
  /** Airdrops and the demo OAuth client exist only on the localnet. */
  readonly isLocalnet: boolean;
  /** A localnet's genesis hash, for `X-Blockchain-Ids` without an RPC lookup. */
  readonly genesisHash?: string;
  readonly oauthStore: OAuthStore;
  readonly rateLimiter: RateLimiterPort;
  readonly swaps: SwapComposition;
  readonly metrics?: ServerMetrics;
  readonly readiness?: ReadinessProbes;
  readonly webhookEndpoints?: TenantWebhookParts;
}
