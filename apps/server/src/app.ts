import { OpenAPIHono } from '@hono/zod-openapi';
import { mountActions } from './actions/index.js';
import { createAdminApp } from './admin/app.js';
import { createDocsRoutes } from './docs/routes.js';
import { BROWSER_PATHS, browserCors } from './http/cors.js';
import { claimedErrors } from './http/error-claims.js';
import { httpMetrics, metricsEndpoint } from './http/metrics.js';
import { readinessEndpoint } from './http/readiness.js';
import { requestId } from './http/request-id.js';
import { securityHeaders } from './http/security-headers.js';
import { interfaceAErrorHandler, notFoundA } from './interface-a/render.js';
import { createOAuthRoutes, type OAuthRoutesDeps } from './oauth/index.js';
import { registerOAuthDocs } from './oauth/openapi.js';
import { serveOpenApiDocument } from './openapi/document.js';
import { createInterfaceA } from './routes/a/index.js';
import { createInterfaceB, type InterfaceBServices } from './routes/b/index.js';
import type { AppServices } from './services.js';

export const API_VERSION = '1.1.0';

/**
 * The HTTP app of the service. Runtime-neutral: Node (main.ts) and edge (edge.ts) entries wrap it.
 * Each transport is a sub-app with its own error pipeline (OAuth `{error, error_description}`,
 * interface B `{code, message, rateLimit}`, interface A `{message}`); what none of them serves
 * (health, docs, unknown paths) answers in interface A's shape.
 */
export function createApp(services: AppServices) {
  const app = new OpenAPIHono();
  // Interface A's pipeline, unless the sub-app serving the request claimed it (interface B).
  app.onError(claimedErrors(interfaceAErrorHandler(services.logger)));
  app.notFound(notFoundA);
  app.use('*', requestId);
  if (services.metrics) app.use('*', httpMetrics(services.metrics.instruments));
  app.use('*', securityHeaders);

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  if (services.readiness) app.get('/readyz', readinessEndpoint(services.readiness));
  if (services.metrics) {
    app.get('/metrics', metricsEndpoint(services.metrics.instruments, services.metrics.access));
  }

  if (services.interfaceB) {
    const { oauthStore: store, clock } = services.interfaceB;
    const allowedOrigins = services.corsAllowedOrigins;
    const cors = browserCors({ store, clock, ...(allowedOrigins ? { allowedOrigins } : {}) });
    for (const path of BROWSER_PATHS) app.use(path, cors);
    app.route('/', createOAuthRoutes(oauthDeps(services.interfaceB)));
    registerOAuthDocs(app.openAPIRegistry);
    app.route('/', createInterfaceB(services.interfaceB, services.maxBodyBytes));
  }
  mountActions(app, services);
  app.route('/', createInterfaceA(services));
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

  serveOpenApiDocument(app, '/v1/openapi.json', {
    version: API_VERSION,
    currencies: services.deps.currencies,
  });
  app.route('/', createDocsRoutes({ specUrl: '/v1/openapi.json', bundle: services.docsBundle }));

  services.mount?.(app);
  return app;
}

/** The OAuth authorization server's settings, from the ones it shares with interface B. */
function oauthDeps(services: InterfaceBServices): OAuthRoutesDeps {
  return {
    store: services.oauthStore,
    clock: services.clock,
    issuer: services.issuer,
    ...(services.adminToken ? { adminToken: services.adminToken } : {}),
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
