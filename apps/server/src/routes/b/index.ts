import type { ClockPort, OAuthStore, RateLimiterPort } from '@token-actions/core';
import { createInterfaceBApp, createInterfaceBGuard, type InterfaceBApp } from '../../interface-b/index.js';
import type { Logger } from '../../logger.js';
import type { SwapComposition } from '../../swaps.js';
import { registerAggregatorSwapRoute } from './aggregator-swap.js';
import { registerProjectSwapRoutes } from './project-swap.js';
import { registerSwapEvents } from './swap-events.js';
import { registerSwapExecuteRoute } from './swap-execute.js';
import { MAX_NOTIFICATION_BYTES, registerWebhookRoutes, TRANSACTION_COMPLETE_PATH } from './webhooks.js';

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

/**
 * Interface B: the bearer + rate-limit guard in front of its prefixes, bodies up to `maxBodyBytes`,
 * and the swap and webhook routes.
 */
export function createInterfaceB(services: InterfaceBServices, maxBodyBytes: number): InterfaceBApp {
  const guard = createInterfaceBGuard({
    store: services.oauthStore,
    rateLimiter: services.rateLimiter,
    clock: services.clock,
    limits: services.limits,
  });
  const bodyLimits = { [TRANSACTION_COMPLETE_PATH]: MAX_NOTIFICATION_BYTES };
  const options = { guard, logger: services.logger, maxBodyBytes, bodyLimits, errors: 'claimed' as const };
  return createInterfaceBApp(options, (app) => {
    const { swaps } = services;
    if (!swaps) return;
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
    registerProjectSwapRoutes(app, guard, swaps);
    registerAggregatorSwapRoute(app, guard, swaps);
    registerSwapExecuteRoute(app, guard, swaps);
    registerWebhookRoutes(app, guard, swaps);
    registerSwapEvents(app.openAPIRegistry);
  });
}
