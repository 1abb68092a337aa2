import pg from 'pg';
import { SentStatements } from './sent.js';
import type { ListenHandlers, SqlClient, TransactionExecutor } from './sql.js';

export interface PostgresClientOptions {
  readonly connectionString: string;
  /** Pool size; default 10. */
  readonly max?: number;
  /**
   * Schema to work in (sets `search_path` on every connection). Lets several deployments or test
   * runs share one database without seeing each other's tables. The schema must already exist.
   */
  readonly schema?: string;
  /** How long acquiring a connection may take before it fails (ms); default: wait forever. */
  readonly connectionTimeoutMillis?: number;
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

/** A node-postgres pool; `transaction` runs BEGIN ... COMMIT, pipelined, on one checked-out connection. */
export function createPostgresClient(options: PostgresClientOptions): SqlClient {
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
    throw new Error('schema must be a plain SQL identifier (letters, digits, underscore)');
  }
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    types: typeParsers,
    // Queries on one connection go out without waiting for the previous answer (node-postgres'
    // pipeline mode); only a transaction ever has more than one in flight on a connection.
    pipeline: true,
    ...(options.connectionTimeoutMillis ? { connectionTimeoutMillis: options.connectionTimeoutMillis } : {}),
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
    async transaction<T>(fn: (tx: TransactionExecutor) => Promise<T>) {
      const conn = await pool.connect();
      let broken: unknown;
      // pg-pool listens for a connection's errors only while it is idle. One lost while checked out
      // (the server restarted, the backend was terminated) emits 'error' when no statement is
      // waiting for it, and an unheard 'error' would end the process. Its statements fail on their
      // own; the connection is destroyed at release.
      const onLost = (error: Error) => {
        broken ??= error;
      };
      conn.on('error', onLost);
      // The connection pipelines: BEGIN goes out now and the first statement follows it without
      // waiting for its answer, and the COMMIT follows the statements `send` did not wait for.
      // Every one of them is answered in order, and each is awaited before the COMMIT's answer is
      // trusted: a failed statement aborts the transaction, and the COMMIT behind it rolls back.
      const begin = conn.query('BEGIN');
      const sent = new SentStatements();
      sent.add(begin);
      try {
        const tx: TransactionExecutor = {
          async query<Row>(text: string, params?: unknown[]) {
            sent.assertOpen();
            const [result] = await Promise.all([conn.query(text, params), begin]);
            return { rows: result.rows as Row[] };
          },
          async exec(text) {
            sent.assertOpen();
            await Promise.all([conn.query(text), begin]);
          },
          send(text, params) {
            sent.assertOpen();
            sent.add(conn.query(text, params));
          },
        };
        const value = await sent.run(() => fn(tx));
        await sent.settle(conn.query('COMMIT'));
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
        conn.off('error', onLost);
        conn.release(broken instanceof Error ? broken : broken === undefined ? undefined : true);
      }
    },
    listen(channel, handlers) {
      return listenOn(options, channel, handlers);
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const RECONNECT_MS = 250;

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other queries). When it is
 * lost, it reconnects, and `onReset` tells the listener that notices may have been missed.
 */
async function listenOn(
  options: PostgresClientOptions,
  channel: string,
  handlers: ListenHandlers,
): Promise<() => Promise<void>> {
  if (!CHANNEL_NAME.test(channel)) throw new Error('channel must be a plain lower-case identifier');
  let stopped = false;
  let current: pg.Client | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempts = 0;

  const connect = (): Promise<void> => {
    const client = new pg.Client({ connectionString: options.connectionString });
    const first = attempts++ === 0;
    current = client;
    let lost = false;
    const onLost = () => {
      if (lost || stopped) return;
      lost = true;
      if (current === client) current = undefined;
      handlers.onReset();
      client.end().catch(() => {});
      timer = setTimeout(() => void connect(), RECONNECT_MS);
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', (n) => {
      if (n.channel === channel) handlers.onNotice(n.payload ?? '');
    });
    return client
      .connect()
      .then(() => client.query(`LISTEN ${channel}`))
      .then(() => {
        // Whatever was cached while no connection listened may have missed a notice.
        if (!first) handlers.onReset();
      }, onLost);
  };

  await connect();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await current?.end().catch(() => {});
  };
}
