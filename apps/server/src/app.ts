import { OpenAPIHono } from '@hono/zod-openapi';
import { createAdminApp } from './admin/app.js';
import { mountBlinks } from './blinks/index.js';
import { openApiDocumentRoute, registerOpenApiDocument } from './docs/openapi-document.js';
import { createDocsRoutes, referenceAssetRoute, referenceRoute } from './docs/reference.js';
import type { UndocumentedRoute } from './docs/route-table.js';
import { BROWSER_PATHS, browserCors } from './http/cors.js';
import { claimedErrors } from './http/error-claims.js';
import { requestId } from './http/request-id.js';
import { securityHeaders } from './http/security-headers.js';
import { createOAuthApp, type OAuthRoutesDeps } from './oauth/index.js';
import { healthzRoute, registerHealthz } from './ops/healthz.js';
import { httpMetrics, metricsRoute, registerMetrics } from './ops/metrics.js';
import { readyzRoute, registerReadyz } from './ops/readyz.js';
import { requestLog } from './ops/request-log.js';
import { createPaymentsApp } from './payments/app.js';
import { notFoundA, paymentsErrorHandler } from './payments/render.js';
import type { AppServices } from './services.js';
import { createSwapsApp, type InterfaceBServices } from './swaps/app.js';

export const API_VERSION = '1.1.0';

/** The routes the app serves outside the OpenAPI document, as the route table lists them. */
export const UNDOCUMENTED_ROUTES: readonly UndocumentedRoute[] = [
  healthzRoute,
  readyzRoute,
  metricsRoute,
  openApiDocumentRoute,
  referenceRoute,
  referenceAssetRoute,
];

/**
 * The HTTP app of the service, one room after another. Runtime-neutral: Node (main.ts) and edge
 * (edge.ts) entries wrap it. Each transport is a sub-app with its own error pipeline (OAuth
 * `{error, error_description}`, swaps `{code, message, rateLimit}`, admin `{code, message}`,
 * payments `{message, code}`); what none of them serves (health, docs, unknown paths) answers in the
 * payments' shape.
 */
export function createApp(services: AppServices) {
  const app = new OpenAPIHono();
  // The payments' pipeline, unless the sub-app serving the request claimed it (the swaps).
  app.onError(claimedErrors(paymentsErrorHandler(services.logger)));
  app.notFound(notFoundA);
  app.use('*', requestId);
  app.use('*', requestLog(services.logger));
  if (services.metrics) app.use('*', httpMetrics(services.metrics.instruments));
  app.use('*', securityHeaders);

  registerHealthz(app);
  if (services.readiness) registerReadyz(app, services.readiness);
  if (services.metrics) registerMetrics(app, services.metrics.instruments, services.metrics.access);

  if (services.interfaceB) {
    const { oauthStore: store, clock } = services.interfaceB;
    const allowedOrigins = services.corsAllowedOrigins;
    const cors = browserCors({ store, clock, ...(allowedOrigins ? { allowedOrigins } : {}) });
    for (const path of BROWSER_PATHS) app.use(path, cors);
    app.route('/', createOAuthApp(oauthDeps(services.interfaceB)));
    app.route('/', createSwapsApp(services.interfaceB, services.maxBodyBytes));
  }
  mountBlinks(app, services);
  app.route('/', createPaymentsApp(services));
  app.route(
    '/',
    createAdminApp({
      store: services.deps.store,
      clock: services.deps.clock,
      logger: services.logger,
      ...(services.adminToken ? { adminToken: services.adminToken } : {}),
      ...(services.webhookEndpoints ? { webhookEndpoints: services.webhookEndpoints } : {}),
    }),
  );

  registerOpenApiDocument(app, { version: API_VERSION, currencies: services.deps.currencies });
  app.route(
    '/',
    createDocsRoutes({
      specUrl: '/v1/openapi.json',
      bundle: services.docsBundle,
      ...(services.demoClientId ? { oauthClientId: services.demoClientId } : {}),
    }),
  );

  services.mount?.(app);
  return app;
}

/** The OAuth authorization server's settings, from the ones it shares with the swaps. */
function oauthDeps(services: InterfaceBServices): OAuthRoutesDeps {
  return {
    store: services.oauthStore,
    clock: services.clock,
    issuer: services.issuer,
    ...(services.adminToken ? { adminToken: services.adminToken } : {}),
    ...(services.devWallet ? { devWallet: true } : {}),
    logger: services.logger,
    accessTokenTtlSec: services.accessTokenTtlSec,
    refreshTokenTtlSec: services.refreshTokenTtlSec,
    codeTtlSec: 60,
    ...(services.siwsChainId ? { siwsChainId: services.siwsChainId } : {}),
    ...(services.swaps ? { webhookUrls: services.swaps.webhookUrls } : {}),
    abuseLimit: {
      rateLimiter: services.rateLimiter,
      perAddressPerMinute: services.limits.perAddressPerMinute * 10,
    },
  };
}

export type { AppServices } from './services.js';
