import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while serving one request carries. */
export interface RequestContext {
  readonly requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * Runs `fn` as part of the request `context`: anything it awaits, down to the use-cases and
 * adapters, logs with the request's id (the logger's mixin reads it), without each layer having to
 * pass a child logger along.
 */
export function runInRequest<T>(context: RequestContext, fn: () => Promise<T>): Promise<T> {
  return storage.run(context, fn);
}

/** The fields of the request being served, for the logger's mixin; none outside a request. */
export function requestLogFields(): Partial<RequestContext> {
  return storage.getStore() ?? {};
}
