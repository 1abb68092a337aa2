import type { ClockPort, OAuthStore, RateLimiterPort } from '@token-actions/core';
import type { SwapComposition } from '@token-actions/runtime/edge';
import type { Logger } from '../logger.js';
import { registerAggregatorSwap } from './aggregator-swap.js';
import { registerExecute } from './execute.js';
import { createSwapsGuard } from './guard.js';
import { createGuardedApp, type SwapsApp } from './guarded-app.js';
import { registerProjectSwap } from './project-swap.js';
import { registerQuote } from './quote.js';
import { registerSwapEvents } from './swap-events.js';
import {
  MAX_NOTIFICATION_BYTES,
  registerTransactionComplete,
  TRANSACTION_COMPLETE_PATH,
} from './transaction-complete.js';
import { registerWebhookSecret } from './webhook-secret.js';

/**
 * What the swaps (the spec's interface B) and the OAuth server they rely on need. The name is the
 * one `AppServices.interfaceB` gives it.
 */
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
  /** The consent page offers a development wallet: the embedded localnet only. */
  readonly devWallet?: boolean;
  /** Pools, swaps and webhooks; the swap routes are mounted when present. */
  readonly swaps?: SwapComposition;
}

/**
 * The swaps: the bearer + rate-limit guard in front of their prefixes, bodies up to
 * `maxBodyBytes`, and the quote, swap, execute and webhook routes.
 */
export function createSwapsApp(services: InterfaceBServices, maxBodyBytes: number): SwapsApp {
  const guard = createSwapsGuard({
    store: services.oauthStore,
    rateLimiter: services.rateLimiter,
    clock: services.clock,
    limits: services.limits,
  });
  const bodyLimits = { [TRANSACTION_COMPLETE_PATH]: MAX_NOTIFICATION_BYTES };
  const options = { guard, logger: services.logger, maxBodyBytes, bodyLimits, errors: 'claimed' as const };
  return createGuardedApp(options, (app) => {
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
    registerQuote(app, guard, swaps.deps);
    registerProjectSwap(app, guard, swaps.deps);
    registerAggregatorSwap(app, guard, swaps.deps);
    registerExecute(app, guard, swaps.deps);
    registerTransactionComplete(app, guard, swaps);
    registerWebhookSecret(app, guard, swaps);
    registerSwapEvents(app.openAPIRegistry);
  });
}
