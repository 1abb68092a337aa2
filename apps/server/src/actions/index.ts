import type { OpenAPIHono } from '@hono/zod-openapi';
import { actionCatalog } from '@token-actions/core';
import type { AppServices } from '../services.js';
import { ACTIONS_PREFIX, createActionsApp } from './app.js';
import { chainIdResolver } from './headers.js';
import { registerActionsDocs } from './openapi.js';

export { ACTIONS_PREFIX, type ActionsAppOptions, createActionsApp } from './app.js';
export { actionHeaders, chainIdResolver } from './headers.js';

/** Mounts the Solana Actions on the root app, with the OAuth issuer as public origin and interface
 * B's limiter for the per-address cap when the app has them. */
export function mountActions(app: OpenAPIHono, services: AppServices): void {
  const b = services.interfaceB;
  app.route(
    '/',
    createActionsApp({
      deps: services.deps,
      logger: services.logger,
      chainId: chainIdResolver(services.deps.chain.cluster, services.genesisHash),
      ...(b
        ? {
            baseUrl: b.issuer,
            postLimit: { rateLimiter: b.rateLimiter, perAddressPerMinute: b.limits.perAddressPerMinute },
          }
        : {}),
    }),
  );
  registerActionsDocs(app.openAPIRegistry, actionCatalog(services.deps.currencies), ACTIONS_PREFIX);
}
