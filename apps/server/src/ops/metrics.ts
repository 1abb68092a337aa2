import type { OpenAPIHono } from '@hono/zod-openapi';
import { hashSecret, sameSecretHash } from '@token-actions/core';
import type { ServerMetrics } from '@token-actions/runtime/edge';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes, routePath } from 'hono/route';
import type { UndocumentedRoute } from '../docs/route-table.js';

export const metricsRoute = {
  method: 'get',
  path: '/metrics',
  operationId: 'getMetrics',
  'x-use-case': 'Prometheus scrape',
  // The operator token, or nothing with METRICS_PUBLIC.
  security: [{ adminToken: [] }, {}],
} as const satisfies UndocumentedRoute;

/**
 * The route pattern that answered (`/v1/api/accounts/:publicKey`), never the raw path, so the
 * label set stays bounded whatever callers send. Middleware-only answers (401 of the API key
 * check, 404 of a prefix) carry the pattern of the middleware; nothing matched is `unmatched`.
 */
export function routeOf(c: Context): string {
  const endpoint = matchedRoutes(c).find((route) => route.method !== 'ALL');
  if (endpoint) return endpoint.path;
  const responder = routePath(c);
  return responder === '' || responder === '*' || responder === '/*' ? 'unmatched' : responder;
}

/** Counts and times every answer by method, route pattern and status; 429s by rate-limit policy too. */
export function httpMetrics(metrics: ServerMetrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const route = routeOf(c);
    const labels = { method: c.req.method, route, status: String(c.res.status) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, (performance.now() - started) / 1000);
    if (c.res.status === 429) {
      // The swaps' guard names its policy (client or address) in RateLimit-Policy; OAuth's abuse limit does not.
      const policy = /^"([a-z]+)"/.exec(c.res.headers.get('ratelimit-policy') ?? '')?.[1] ?? 'oauth';
      metrics.rateLimitRejections.inc({ route, policy });
    }
  };
}

/**
 * GET /metrics in the Prometheus text format. With an operator token it takes
 * `Authorization: Bearer <token>` (Prometheus' `authorization` scrape setting), because the
 * figures (traffic, outbox size, errors) describe the business; `open` serves it to anyone who
 * reaches the listener, for a scraper on a private network.
 */
export function registerMetrics(
  app: OpenAPIHono,
  metrics: ServerMetrics,
  access: { readonly token?: string; readonly open: boolean },
): void {
  app.get('/metrics', metricsEndpoint(metrics, access));
}

function metricsEndpoint(
  metrics: ServerMetrics,
  access: { readonly token?: string; readonly open: boolean },
) {
  const tokenHash = access.token ? hashSecret(access.token) : undefined;
  return async (c: Context) => {
    if (!access.open) {
      const presented = /^Bearer (\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
      if (!tokenHash || !presented || !sameSecretHash(presented, tokenHash)) {
        const message = tokenHash
          ? 'metrics need Authorization: Bearer <ADMIN_TOKEN>'
          : 'metrics are off: set ADMIN_TOKEN (then scrape with it) or METRICS_PUBLIC=true';
        return c.json({ message }, 401, { 'WWW-Authenticate': 'Bearer', 'Cache-Control': 'no-store' });
      }
    }
    const body = await metrics.registry.metrics();
    return c.body(body, 200, { 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' });
  };
}
