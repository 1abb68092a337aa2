/**
 * The one SQL surface every pg-dialect adapter uses. Both PGlite (`db.query`) and node-postgres
 * (`pool.query`) satisfy it, so the same statements run embedded and on a PostgreSQL server.
 *
 * Value conventions both clients keep: `bigint`/`numeric` columns come back as decimal strings
 * (never JS numbers, so amounts never pass through a float), `bytea` as a Uint8Array (a Buffer on
 * node-postgres), timestamps as Date.
 */
export interface SqlClient {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  /** Runs several `;`-separated statements without parameters (migrations). */
  exec?(text: string): Promise<void>;
  /**
   * Runs `fn` inside one transaction on one connection. It commits once `fn` has resolved and every
   * statement it `send`s has succeeded; a failed one rolls the whole transaction back.
   */
  transaction<T>(fn: (tx: TransactionExecutor) => Promise<T>): Promise<T>;
  /**
   * Calls `onNotice` with the payload of every NOTIFY on `channel` (from any process on the same
   * database), and `onReset` whenever notices may have been missed (the listening connection was
   * lost and is back). Resolves once listening, to a function that stops.
   */
  listen?(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface ListenHandlers {
  onNotice(payload: string): void;
  onReset(): void;
}

export interface SqlExecutor {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  /** Runs several `;`-separated statements without parameters (migrations). */
  exec?(text: string): Promise<void>;
}

/** The executor inside a transaction. */
export interface TransactionExecutor extends SqlExecutor {
  /**
   * Sends a statement whose rows the caller does not need, without waiting for it: the transaction
   * waits for it before it commits, and fails if it failed. On node-postgres the COMMIT follows it
   * on the wire (pipelined), so a transaction's last write and its COMMIT cost one round trip.
   */
  send(text: string, params?: unknown[]): void;
}
