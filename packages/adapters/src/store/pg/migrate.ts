import { migrations as bundledMigrations } from './migrations/index.js';
import type { Migration } from './migrations/types.js';
import type { SqlClient, SqlExecutor } from './sql.js';

// Any fixed 64-bit number works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK_KEY = '7318046925133810911';

export interface MigrateResult {
  /** Ids applied by this call, in order (empty when the schema was already current). */
  readonly applied: readonly string[];
}

/**
 * Brings the schema up to date. All pending migrations run in one transaction holding a
 * transaction-scoped advisory lock, so processes starting together apply each migration exactly
 * once: the second waits for the first, then finds nothing left to do.
 */
export async function migrate(
  sql: SqlClient,
  migrations: readonly Migration[] = bundledMigrations,
): Promise<MigrateResult> {
  const ordered = [...migrations].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return sql.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         id text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const done = await tx.query<{ id: string }>('SELECT id FROM schema_migrations');
    const seen = new Set(done.rows.map((r) => r.id));
    const applied: string[] = [];
    for (const migration of ordered) {
      if (seen.has(migration.id)) continue;
      await runScript(tx, migration.sql);
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id]);
      applied.push(migration.id);
    }
    return { applied };
  });
}

async function runScript(tx: SqlExecutor, script: string): Promise<void> {
  // The extended protocol (PGlite's `query`) takes one statement; `exec` takes a script.
  if (tx.exec) await tx.exec(script);
  else await tx.query(script);
}
