import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logger.js';
import { routeOf } from './metrics.js';

/** What the request log reads of a request's context, whichever room served it. */
interface Caller {
  /** Interface A: the API key's tenant (http/auth.ts). */
  readonly tenant?: { readonly id: string };
  /** Interface B: the access token's principal (swaps/guard.ts). */
  readonly principal?: { readonly clientId: string };
}

/**
 * One line per request once it is answered: method, route pattern (`/v1/api/escrows/:id`, never
 * the raw path, which may carry ids or a pasted credential), status, duration, request id, and
 * the tenant or OAuth client when the request authenticated. The level follows the status: info
 * for 2xx and 3xx, warn for 4xx, error for 5xx, so `LOG_LEVEL=warn` keeps only the failures. No
 * header, query string or body is read: nothing secret can reach the line.
 */
export function requestLog(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const status = c.res.status;
    const route = routeOf(c);
    const caller = c.var as Caller;
    const fields = {
      method: c.req.method,
      route,
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      requestId: c.get('requestId'),
      ...(caller.tenant ? { tenant: caller.tenant.id } : {}),
      ...(caller.principal ? { clientId: caller.principal.clientId } : {}),
    };
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    logger[level](fields, `${c.req.method} ${route} ${status}`);
  };
}
