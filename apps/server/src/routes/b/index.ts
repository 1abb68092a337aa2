import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ClockPort, OAuthStore, RateLimiterPort } from '@token-actions/core';
import { createInterfaceBGuard, type InterfaceBGuard } from '../../interface-b/index.js';
import type { Logger } from '../../logger.js';
import { createOAuthRoutes } from '../../oauth/index.js';
import type { SwapComposition } from '../../swaps.js';
import { registerAggregatorSwapRoute } from './aggregator-swap.js';
import { registerProjectSwapRoutes } from './project-swap.js';
import { registerSwapExecuteRoute } from './swap-execute.js';
import { registerWebhookRoutes } from './webhooks.js';

/** The prefixes of interface B; interface A shares `/v1` and must stay outside the guard. */
export const INTERFACE_B_PREFIXES = ['/v1/project', '/v1/aggregator', '/v1/swap', '/v1/webhooks'] as const;

export interface InterfaceBServices {
  readonly issuer: string;
  readonly oauthStore: OAuthStore;
  readonly rateLimiter: RateLimiterPort;
  readonly clock: ClockPort;
  readonly logger: Logger;
  readonly limits: { readonly perClientPerMinute: number; readonly perAddressPerMinute: number };
  readonly adminToken?: string;
  readonly accessTokenTtlSec: number;
  readonly refreshTokenTtlSec: number;
  readonly siwsChainId?: string;
  /** Pools, swaps and webhooks; the swap routes are mounted when present. */
  readonly swaps?: SwapComposition;
}

/** Mounts the OAuth authorization server and puts the bearer + rate-limit guard in front of interface B. */
export function mountInterfaceB(app: OpenAPIHono, services: InterfaceBServices): InterfaceBGuard {
  app.route(
    '/',
    createOAuthRoutes({
      store: services.oauthStore,
      clock: services.clock,
      issuer: services.issuer,
      ...(services.adminToken ? { adminToken: services.adminToken } : {}),
      logger: services.logger,
      accessTokenTtlSec: services.accessTokenTtlSec,
      refreshTokenTtlSec: services.refreshTokenTtlSec,
      codeTtlSec: 60,
      ...(services.siwsChainId ? { siwsChainId: services.siwsChainId } : {}),
      abuseLimit: {
        rateLimiter: services.rateLimiter,
        perAddressPerMinute: services.limits.perAddressPerMinute * 10,
      },
    }),
  );
  const guard = createInterfaceBGuard({
    store: services.oauthStore,
    rateLimiter: services.rateLimiter,
    clock: services.clock,
    limits: services.limits,
  });
  for (const prefix of INTERFACE_B_PREFIXES) {
    app.use(prefix, guard.rateLimit);
    app.use(`${prefix}/*`, guard.rateLimit);
  }
  if (services.swaps) {
    app.openAPIRegistry.registerComponent('securitySchemes', 'oauth2', {
      type: 'oauth2',
      description: 'Interface B: OAuth 2.0 authorization code with PKCE; scopes read and write',
      flows: {
        authorizationCode: {
          authorizationUrl: `${services.issuer}/oauth/authorize`,
          tokenUrl: `${services.issuer}/oauth/token`,
          scopes: { read: 'Read swap data', write: 'Execute swaps' },
        },
      },
    });
    app.openAPIRegistry.registerComponent('securitySchemes', 'standardWebhooks', {
      type: 'apiKey',
      in: 'header',
      name: 'webhook-signature',
      description:
        'Standard Webhooks signature (with webhook-id and webhook-timestamp), when WEBHOOK_SECRET is set',
    });
    registerProjectSwapRoutes(app, guard, services.swaps, services.logger);
    registerAggregatorSwapRoute(app, guard, services.swaps, services.logger);
    registerSwapExecuteRoute(app, guard, services.swaps, services.logger);
    registerWebhookRoutes(app, guard, services.swaps, services.logger);
  }
  return guard;
}
