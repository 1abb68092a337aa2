import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ActionDeps } from '@token-actions/core';
import type { DocsBundle } from './docs/assets.js';
import type { Logger } from './logger.js';
import type { ServerMetrics } from './observability/metrics.js';
import type { ReadinessChecks } from './ops/readyz.js';
import type { WebhookEndpointServices } from './payments/webhook-endpoints/schemas.js';
import type { InterfaceBServices } from './swaps/app.js';

/** What the HTTP app needs, built by a composition root (compose.ts, or a test). */
export interface AppServices {
  readonly deps: ActionDeps;
  readonly logger: Logger;
  readonly maxBodyBytes: number;
  /** Airdrops exist only on the localnet. */
  readonly isLocalnet: boolean;
  /** The operator token of the admin API (and OAuth client registration); the admin API is off without one. */
  readonly adminToken?: string;
  /** OAuth server and interface B; absent in apps that serve interface A only. */
  readonly interfaceB?: InterfaceBServices;
  /** Origins admitted by CORS on interface B and OAuth; default: public clients' redirect origins. */
  readonly corsAllowedOrigins?: readonly string[];
  /** Genesis hash of a localnet or custom cluster, for `X-Blockchain-Ids` without an RPC lookup. */
  readonly genesisHash?: string;
  /** The reference UI's script; without it /v1/docs links the raw document only. */
  readonly docsBundle?: DocsBundle;
  /** Prometheus instruments; `/metrics` and the request metrics are mounted when present. */
  readonly metrics?: {
    readonly instruments: ServerMetrics;
    /** The operator token that scrapes `/metrics`; `open` serves it without one. */
    readonly access: { readonly token?: string; readonly open: boolean };
  };
  /** The database and chain probes of `/readyz`, mounted when present. */
  readonly readiness?: ReadinessChecks;
  /** Tenants' webhook endpoints (`/v1/api/webhooks`, `/v1/admin/webhooks`), mounted when present. */
  readonly webhookEndpoints?: WebhookEndpointServices;
  /** Mounts further routers on the root app. */
  readonly mount?: (app: OpenAPIHono) => void;
}
