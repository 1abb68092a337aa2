import pg from 'pg';
import type { SqlClient, SqlExecutor } from './sql.js';

export interface PostgresClientOptions {
  readonly connectionString: string;
  /** Pool size; default 10. */
  readonly max?: number;
  /**
   * Schema to work in (sets `search_path` on every connection). Lets several deployments or test
   * runs share one database without seeing each other's tables. The schema must already exist.
   */
  readonly schema?: string;
  /** Called when an idle pooled connection fails (the pool drops it and reconnects on demand). */
  readonly onIdleError?: (error: Error) => void;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

// node-postgres already returns int8/numeric as strings; pinning it per pool keeps that true even
// if some other code in the process installs a global parser that turns them into numbers.
const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => value;
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  },
} as pg.CustomTypesConfig;

/** A node-postgres pool; `transaction` runs BEGIN ... COMMIT on one checked-out connection. */
export function createPostgresClient(options: PostgresClientOptions): SqlClient {
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
    throw new Error('schema must be a plain SQL identifier (letters, digits, underscore)');
  }
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    types: typeParsers,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  pool.on('error', (error) => options.onIdleError?.(error));

  return {
    async query<Row>(text: string, params?: unknown[]) {
      const result = await pool.query(text, params);
      return { rows: result.rows as Row[] };
    },
    async exec(text) {
      await pool.query(text);
    },
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>) {
      const conn = await pool.connect();
      let broken: unknown;
      try {
        await conn.query('BEGIN');
        const tx: SqlExecutor = {
          async query<Row>(text: string, params?: unknown[]) {
            const result = await conn.query(text, params);
            return { rows: result.rows as Row[] };
          },
          async exec(text) {
            await conn.query(text);
          },
        };
        const value = await fn(tx);
        await conn.query('COMMIT');
        return value;
      } catch (error) {
        try {
          await conn.query('ROLLBACK');
        } catch (rollbackError) {
          // A connection that cannot roll back is in an unknown state: destroy it rather than reuse it.
          broken = rollbackError;
        }
        throw error;
      } finally {
        conn.release(broken instanceof Error ? broken : broken === undefined ? undefined : true);
      }
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}
