import { mkdir } from 'node:fs/promises';
import { PGlite, types } from '@electric-sql/pglite';
import { SentStatements } from './sent.js';
import type { ListenHandlers, SqlClient, TransactionExecutor } from './sql.js';

export interface PgliteClientOptions {
  /** Directory holding the database files; in memory when absent. */
  readonly dataDir?: string;
}

// PGlite turns int8 into a JS number when it fits 53 bits; amounts must never pass through a float.
const asText = (value: string) => value;
const PARSERS = { [types.INT8]: asText, [types.NUMERIC]: asText };

/**
 * PostgreSQL compiled to WebAssembly, in this process. It has a single connection: statements
 * queue behind each other and a transaction holds the connection until it ends, so code inside
 * `transaction` must use the executor it is given, never the client (that would wait forever).
 */
export async function createPgliteClient(options: PgliteClientOptions = {}): Promise<SqlClient> {
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const db = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    parsers: PARSERS,
  });

  return {
    async query<Row>(text: string, params?: unknown[]) {
      const result = await db.query<Row>(text, params as unknown[] | undefined);
      return { rows: result.rows };
    },
    async exec(text) {
      await db.exec(text);
    },
    transaction<T>(fn: (tx: TransactionExecutor) => Promise<T>) {
      return db.transaction(async (tx) => {
        const sent = new SentStatements();
        const value = await sent.run(() =>
          fn({
            async query<Row>(text: string, params?: unknown[]) {
              sent.assertOpen();
              const result = await tx.query<Row>(text, params as unknown[] | undefined);
              return { rows: result.rows };
            },
            async exec(text) {
              sent.assertOpen();
              await tx.exec(text);
            },
            send(text, params) {
              sent.assertOpen();
              sent.add(tx.query(text, params as unknown[] | undefined));
            },
          }),
        );
        // What was sent without waiting is done, and succeeded, before PGlite commits.
        await sent.settle();
        return value;
      });
    },
    async listen(channel: string, handlers: ListenHandlers) {
      // One process owns the embedded database, so its notices are this process's own.
      const stop = await db.listen(channel, (payload) => handlers.onNotice(payload));
      return async () => {
        if (!db.closed) await stop();
      };
    },
    async close() {
      if (!db.closed) await db.close();
    },
  };
}
