/**
 * Writes docs/routes.md, the table of every route the server serves, from the app itself: the app
 * is built over in-memory ports with every optional part mounted (swaps, OAuth, admin, tenant
 * webhooks, metrics, readiness, the docs bundle), then its router's routes are read and joined
 * with their declarations (`routeTable`). Run it with `pnpm --filter @token-actions/server routes`;
 * test/docs/route-table.contract.test.ts fails when the file and the app disagree.
 */
import { lookup } from 'node:dns';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createFakeRateLimiter,
  createInMemoryWebhookEndpointStore,
  createMemoryOAuthStore,
  createTestSwapDeps,
} from '@token-actions/core/testing';
import { createServerMetrics } from '@token-actions/runtime';
import { okAsync } from 'neverthrow';
import { API_VERSION, createApp, UNDOCUMENTED_ROUTES } from '../src/app.js';
import { buildDocument } from '../src/docs/openapi-document.js';
import { routeTable, routeTableMarkdown } from '../src/docs/route-table.js';
import { createLogger } from '../src/logger.js';

export const ROUTES_FILE = fileURLToPath(new URL('../../../docs/routes.md', import.meta.url));

/** The app with every optional part mounted, over in-memory ports: only its routes are read. */
async function fullApp() {
  const t = await createTestSwapDeps();
  const logger = createLogger('silent');
  const clock = t.deps.clock;
  const allowAll = { check: () => okAsync(undefined) };
  const webhookEndpoints = createInMemoryWebhookEndpointStore({ store: t.store });
  const app = createApp({
    deps: t.deps,
    logger,
    maxBodyBytes: 65_536,
    isLocalnet: true,
    adminToken: 'route-table',
    docsBundle: { version: '0', load: async () => new Uint8Array() },
    metrics: { instruments: createServerMetrics({ processMetrics: false }), access: { open: false } },
    readiness: { database: async () => undefined, chain: async () => undefined },
    webhookEndpoints: {
      store: webhookEndpoints,
      outbound: allowAll,
      deliveries: t.webhookStore,
      secretFor: () => 'whsec_route-table',
    },
    interfaceB: {
      issuer: 'http://127.0.0.1',
      oauthStore: createMemoryOAuthStore(),
      rateLimiter: createFakeRateLimiter(clock),
      clock,
      logger,
      limits: { perClientPerMinute: 1, perAddressPerMinute: 1 },
      accessTokenTtlSec: 900,
      refreshTokenTtlSec: 86_400,
      swaps: {
        deps: t.swapDeps,
        webhookSecretFor: () => 'whsec_route-table',
        webhookUrls: { ...allowAll, lookup },
        webhookEndpoints,
        endpointSecretFor: () => 'whsec_route-table',
      },
    },
  });
  return { app, currencies: t.deps.currencies };
}

/** The table the app serves now, and what is wrong with its declarations. */
export async function currentRouteTable(): Promise<{ markdown: string; problems: string[] }> {
  const { app, currencies } = await fullApp();
  const document = buildDocument(app, { version: API_VERSION, currencies });
  const { rows, problems } = routeTable(app, document, UNDOCUMENTED_ROUTES);
  return { markdown: routeTableMarkdown(rows), problems };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { markdown, problems } = await currentRouteTable();
  if (problems.length > 0) {
    console.error(`route declarations to fix:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  await writeFile(ROUTES_FILE, markdown);
  console.log(`wrote ${ROUTES_FILE}`);
}
