import type { MiddlewareHandler } from 'hono';
import { withAnswerHeaders } from './security-headers.js';

/** A caller's id is kept when it is short and plain: it ends up in logs and headers verbatim. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

export const REQUEST_ID_HEADER = 'X-Request-Id';

export type RequestIdVariables = { requestId: string };

// Every room logs through `requestLogger`, whatever its own variables: the id is typed once, for
// every context, as Hono's own request-id middleware types its variable. Absent outside this
// middleware (a sub-app served on its own, a unit test).
declare module 'hono' {
  interface ContextVariableMap {
    requestId?: string;
  }
}

/**
 * `X-Request-Id` on every answer: the caller's own when well-formed (so a trace crosses a proxy
 * or a client's logs), else a fresh UUID. What logs while serving the request logs through
 * `requestLogger(c, …)`, so its lines carry `requestId`.
 */
export const requestId: MiddlewareHandler<{ Variables: RequestIdVariables }> = (c, next) => {
  const offered = c.req.header(REQUEST_ID_HEADER);
  const id = offered !== undefined && WELL_FORMED.test(offered) ? offered : crypto.randomUUID();
  c.set('requestId', id);
  return withAnswerHeaders(c, next, { [REQUEST_ID_HEADER]: id });
};
