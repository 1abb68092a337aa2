/**
 * The one SQL surface every pg-dialect adapter uses. Both PGlite (`db.query`) and node-postgres
 * (`pool.query`) satisfy it, so the same statements run embedded and on a PostgreSQL server.
 */
export interface SqlClient {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  /** Runs `fn` inside one transaction on one connection. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface SqlExecutor {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
}
