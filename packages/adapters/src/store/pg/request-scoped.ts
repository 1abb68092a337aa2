import { AsyncLocalStorage } from 'node:async_hooks';
import { createPostgresClient, type PostgresClientOptions } from './postgres.js';
import type { SqlClient } from './sql.js';

/** What an edge runtime hands each invocation to keep work alive after the response. */
export interface WaitUntil {
  waitUntil(promise: Promise<unknown>): void;
}

export interface RequestScopedSql {
  /** Composed against once per isolate; every call lands on the current invocation's pool. */
  readonly sql: SqlClient;
  /** Runs one invocation (a request, a cron run) with its own connections, ended after it. */
  scope<T>(ctx: WaitUntil, fn: () => Promise<T>): Promise<T>;
}

/**
 * PostgreSQL for workerd: it binds every socket to the invocation that opened it, so a pool shared
 * across requests hangs or throws ("Cannot perform I/O on behalf of a different request"). The
 * stores keep one `sql` for the isolate's life; underneath, each invocation opens a small pool on
 * its first query and closes it in `waitUntil`, off the response's latency. Do not call the outer
 * `sql` inside a transaction callback: with `max` connections in flight that waits forever, so a
 * connection timeout turns the mistake into an error.
 */
export function createRequestScopedSql(
  options: Omit<PostgresClientOptions, 'onIdleError'> & { readonly max?: number },
): RequestScopedSql {
  const storage = new AsyncLocalStorage<{ client?: SqlClient }>();
  const current = (): SqlClient => {
    const slot = storage.getStore();
    if (!slot) throw new Error('SQL used outside a request scope');
    slot.client ??= createPostgresClient({
      connectionTimeoutMillis: 10_000,
      ...options,
      max: options.max ?? 2,
      onIdleError: () => {},
    });
    return slot.client;
  };
  const sql: SqlClient = {
    query: (text, params) => current().query(text, params),
    exec: (text) => current().exec!(text),
    transaction: (fn) => current().transaction(fn),
    close: async () => {},
  };
  return {
    sql,
    async scope(ctx, fn) {
      const slot: { client?: SqlClient } = {};
      try {
        return await storage.run(slot, fn);
      } finally {
        if (slot.client) ctx.waitUntil(slot.client.close());
      }
    },
  };
}
