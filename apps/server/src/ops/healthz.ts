import type { OpenAPIHono } from '@hono/zod-openapi';
import type { UndocumentedRoute } from '../docs/route-table.js';

export const healthzRoute = {
  method: 'get',
  path: '/healthz',
  operationId: 'getHealth',
  'x-use-case': 'liveness probe',
  security: [],
} as const satisfies UndocumentedRoute;

/**
 * GET /healthz, the liveness probe: the process answers. It checks no dependency, so an outage of
 * one does not get every process restarted (that is /readyz's to tell).
 */
export function registerHealthz(app: OpenAPIHono): void {
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
}
