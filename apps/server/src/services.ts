import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ActionDeps } from '@token-actions/core';
import type { AppParts, ServerMetrics } from '@token-actions/runtime/edge';
import type { ServerConfig } from './config.js';
import type { DocsBundle } from './docs/assets.js';
import type { Logger } from './logger.js';
import type { ReadinessChecks } from './ops/readyz.js';
import type { WebhookEndpointServices } from './payments/webhook-endpoints/schemas.js';
import type { InterfaceBServices } from './swaps/app.js';

/** What the HTTP app needs: built by `appServices` from a process's composition, or by a test. */
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
  /** The demo OAuth client the reference page's Authorize fills in (the localnet seeds it). */
  readonly demoClientId?: string;
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

/** What an entry adds to its composition's parts: its settings, logger and public URL. */
export interface AppSettings {
  readonly config: Pick<
    ServerConfig,
    | 'MAX_BODY_BYTES'
    | 'CORS_ALLOWED_ORIGINS'
    | 'RATE_LIMIT_PER_MINUTE'
    | 'RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE'
    | 'ACCESS_TOKEN_TTL_SEC'
    | 'REFRESH_TOKEN_TTL_SEC'
    | 'METRICS_PUBLIC'
  >;
  readonly logger: Logger;
  /** The OAuth issuer: the service's public URL. */
  readonly issuer: string;
  /** The operator token: it registers OAuth clients, and with `adminApi` also guards the admin
   * API and `/metrics`. */
  readonly adminToken?: string;
  /** Serve the admin API; the edge worker does not (its operator token only registers clients). */
  readonly adminApi: boolean;
  readonly docsBundle?: DocsBundle;
  /** The consent page's development wallet: only when the chain is the embedded localnet. */
  readonly devWallet?: boolean;
  /** The demo OAuth client, when the entry seeds one (a localnet). */
  readonly demoClientId?: string;
}

/**
 * The HTTP app's settings from a process's composition, for every entry (Node and edge): the
 * parts a process shape lacks (metrics, readiness, tenant webhooks) leave their routes unmounted.
 */
export function appServices(parts: AppParts, settings: AppSettings): AppServices {
  const { config, logger } = settings;
  const operator = settings.adminApi ? settings.adminToken : undefined;
  return {
    deps: parts.deps,
    logger,
    maxBodyBytes: config.MAX_BODY_BYTES,
    isLocalnet: parts.isLocalnet,
    ...(config.CORS_ALLOWED_ORIGINS ? { corsAllowedOrigins: config.CORS_ALLOWED_ORIGINS } : {}),
    ...(parts.genesisHash ? { genesisHash: parts.genesisHash } : {}),
    ...(settings.docsBundle ? { docsBundle: settings.docsBundle } : {}),
    ...(settings.demoClientId ? { demoClientId: settings.demoClientId } : {}),
    ...(parts.webhookEndpoints ? { webhookEndpoints: parts.webhookEndpoints } : {}),
    ...(operator ? { adminToken: operator } : {}),
    ...(parts.metrics
      ? {
          metrics: {
            instruments: parts.metrics,
            access: { ...(operator ? { token: operator } : {}), open: config.METRICS_PUBLIC },
          },
        }
      : {}),
    ...(parts.readiness ? { readiness: parts.readiness } : {}),
    interfaceB: {
      issuer: settings.issuer,
      oauthStore: parts.oauthStore,
      rateLimiter: parts.rateLimiter,
      clock: parts.deps.clock,
      logger,
      limits: {
        perClientPerMinute: config.RATE_LIMIT_PER_MINUTE,
        perAddressPerMinute: config.RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE,
      },
      ...(settings.adminToken ? { adminToken: settings.adminToken } : {}),
      accessTokenTtlSec: config.ACCESS_TOKEN_TTL_SEC,
      refreshTokenTtlSec: config.REFRESH_TOKEN_TTL_SEC,
      ...(parts.isLocalnet ? { siwsChainId: 'localnet' } : {}),
      ...(settings.devWallet ? { devWallet: true } : {}),
      swaps: parts.swaps,
    },
  };
}
