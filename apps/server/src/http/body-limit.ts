import type { Context, Env, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

export interface BodyLimitOptions<E extends Env> {
  readonly maxSize: number;
  /** The 413 answer, in the shape of the interface the request is for. */
  readonly onError: (c: Context<E>) => Response | Promise<Response>;
}

const DECIMAL = /^\d+$/;

/**
 * Refuses request bodies over `maxSize` bytes (413). A body announced by `Content-Length` is judged
 * by the header alone: the HTTP parser delivers exactly that many bytes, so nothing is read here and
 * the handler's own `c.req.json()` reads the body once, straight from the socket (on Node, touching
 * `c.req.raw.body`, as Hono's `bodyLimit` does first, builds a WHATWG `Request` and a web stream for
 * every POST: a tenth of a donation's CPU). A body without a length (chunked) is counted while it
 * streams, by Hono's `bodyLimit`, and refused as soon as it passes the limit. Reads never carry a
 * body and pass at once.
 */
export function limitBody<E extends Env>(options: BodyLimitOptions<E>): MiddlewareHandler<E> {
  const streaming = bodyLimit({ maxSize: options.maxSize, onError: options.onError });
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined && DECIMAL.test(length)) {
      return Number(length) > options.maxSize ? options.onError(c) : next();
    }
    return streaming(c, next);
  };
}

/** GET and HEAD carry no body to limit or check. */
export const isRead = (c: Context) => c.req.method === 'GET' || c.req.method === 'HEAD';

/**
 * `checks` for requests that may carry a body, as one step that a read passes at once: each step
 * of a chain costs every request a dispatch and its promises, and reads are most of the traffic.
 */
export function forBodies<E extends Env>(checks: MiddlewareHandler<E>): MiddlewareHandler<E> {
  return (c, next) => (isRead(c) ? next() : checks(c, next));
}
