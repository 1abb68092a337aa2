import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { UndocumentedRoute } from '../docs/route-table.js';

export const readyzRoute = {
  method: 'get',
  path: '/readyz',
  operationId: 'getReadiness',
  'x-use-case': 'readiness probe',
  security: [],
} as const satisfies UndocumentedRoute;

/** One probe per dependency; each resolves when it answers and rejects (or hangs) when it does not. */
export interface ReadinessChecks {
  readonly database: () => Promise<unknown>;
  readonly chain: () => Promise<unknown>;
}

const within = (ms: number, probe: () => Promise<unknown>) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    probe().then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });

/**
 * GET /readyz: whether this process can serve traffic now, i.e. its database and its chain
 * answer (each probe bounded by `timeoutMs`, run together). 503 names what failed, so a load
 * balancer takes the process out and an operator sees why. `/healthz` stays the liveness probe:
 * a dependency outage must not get every process restarted.
 */
export function registerReadyz(app: OpenAPIHono, checks: ReadinessChecks, timeoutMs = 2_000): void {
  app.get('/readyz', readinessEndpoint(checks, timeoutMs));
}

/** The handler of GET /readyz. */
export function readinessEndpoint(checks: ReadinessChecks, timeoutMs = 2_000) {
  return async (c: Context) => {
    const names = Object.keys(checks) as (keyof ReadinessChecks)[];
    const settled = await Promise.allSettled(names.map((name) => within(timeoutMs, checks[name])));
    const results = Object.fromEntries(
      names.map((name, i) => [name, settled[i]!.status === 'fulfilled' ? 'ok' : 'failed']),
    ) as Record<keyof ReadinessChecks, 'ok' | 'failed'>;
    const failed = names.filter((name) => results[name] === 'failed');
    const headers = { 'Cache-Control': 'no-store' };
    if (failed.length === 0) return c.json({ status: 'ready', checks: results }, 200, headers);
    return c.json(
      { status: 'unavailable', message: `not ready: ${failed.join(' and ')} unreachable`, checks: results },
      503,
      headers,
    );
  };
}
