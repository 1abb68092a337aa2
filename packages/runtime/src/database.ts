import { join } from 'node:path';
import { createPgliteClient, createPostgresClient, migrate, type SqlClient } from '@token-actions/adapters';
import type { StateConfig } from './config/fragments.js';

/**
 * The database, migrated: PostgreSQL when DATABASE_URL is set, else the embedded PGlite under
 * DATA_DIR/pglite (which belongs to one process at a time).
 */
export async function openDatabase(
  config: Pick<StateConfig, 'DATA_DIR' | 'DATABASE_URL'>,
  options: { readonly maxConnections?: number } = {},
): Promise<SqlClient> {
  const sql: SqlClient = config.DATABASE_URL
    ? createPostgresClient({
        connectionString: config.DATABASE_URL,
        ...(options.maxConnections !== undefined ? { max: options.maxConnections } : {}),
      })
    : await createPgliteClient({ dataDir: join(config.DATA_DIR, 'pglite') });
  try {
    await migrate(sql);
  } catch (error) {
    await sql.close();
    throw error;
  }
  return sql;
}
