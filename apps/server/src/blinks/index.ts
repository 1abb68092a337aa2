import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppServices } from '../services.js';
import { createBlinksApp } from './app.js';
import { chainIdResolver } from './headers.js';

/**
 * Mounts the Solana Actions on the root app, with the OAuth issuer as public origin and the swaps'
 * limiter for the per-address cap when the app has them.
 */
export function mountBlinks(app: OpenAPIHono, services: AppServices): void {
  const b = services.interfaceB;
  app.route(
    '/',
    createBlinksApp({
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
}
