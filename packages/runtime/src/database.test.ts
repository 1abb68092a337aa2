import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgliteClient, migrate } from '@token-actions/adapters';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnv } from './config/env.js';
import { StateConfigSchema } from './config/fragments.js';
import { chooseDatabase, openDatabase } from './database.js';

describe('the embedded database', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  const fresh = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'runtime-db-'));
    dirs.push(dir);
    return dir;
  };

  it('is a PostgreSQL server under DATA_DIR/postgres on a fresh data directory, migrated, stopped on close', async () => {
    const dataDir = await fresh();
    const config = parseEnv(StateConfigSchema, { DATA_DIR: dataDir });
    expect(await chooseDatabase(config)).toEqual({
      kind: 'embedded-postgres',
      dataDir: join(dataDir, 'postgres'),
    });
    const sql = await openDatabase(config);
    try {
      const { rows } = await sql.query<{ version: string; n: number }>(
        `SELECT current_setting('server_version_num') AS version, (SELECT count(*)::int FROM api_keys) AS n`,
      );
      expect(Number(rows[0]!.version)).toBeGreaterThanOrEqual(180000);
      expect(rows[0]!.n).toBe(0);
      await stat(join(dataDir, 'postgres', 'cluster', 'PG_VERSION'));
      await expect(stat(join(dataDir, 'pglite'))).rejects.toThrow();
    } finally {
      await sql.close();
    }
    // Stopped: nothing holds the cluster any more.
    await expect(stat(join(dataDir, 'postgres', 'cluster', 'postmaster.pid'))).rejects.toThrow();
  });

  it('stays PGlite for a data directory PGlite already holds, so an upgrade keeps its data', async () => {
    const dataDir = await fresh();
    const before = await createPgliteClient({ dataDir: join(dataDir, 'pglite') });
    await migrate(before);
    await before.query('INSERT INTO tenants (id, created_at) VALUES ($1, now())', ['kept']);
    await before.close();

    const config = parseEnv(StateConfigSchema, { DATA_DIR: dataDir });
    expect((await chooseDatabase(config)).kind).toBe('pglite');
    const sql = await openDatabase(config);
    try {
      const { rows } = await sql.query<{ id: string }>('SELECT id FROM tenants WHERE id = $1', ['kept']);
      expect(rows).toEqual([{ id: 'kept' }]);
    } finally {
      await sql.close();
    }
    await expect(stat(join(dataDir, 'postgres'))).rejects.toThrow();
    // Asking for the server explicitly would start an empty database beside the one with the data.
    await expect(
      chooseDatabase(parseEnv(StateConfigSchema, { DATA_DIR: dataDir, EMBEDDED_DATABASE: 'postgres' })),
    ).rejects.toThrow(/holds a PGlite database/);
  });

  it('is PGlite on a fresh directory when EMBEDDED_DATABASE=pglite, and never embedded with DATABASE_URL', async () => {
    const dataDir = await fresh();
    expect(
      await chooseDatabase(parseEnv(StateConfigSchema, { DATA_DIR: dataDir, EMBEDDED_DATABASE: 'pglite' })),
    ).toEqual({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
    expect(
      await chooseDatabase(
        parseEnv(StateConfigSchema, { DATA_DIR: dataDir, DATABASE_URL: 'postgres://127.0.0.1/x' }),
      ),
    ).toEqual({ kind: 'postgres' });
    expect(() => parseEnv(StateConfigSchema, { DATA_DIR: dataDir, EMBEDDED_DATABASE: 'sqlite' })).toThrow(
      /EMBEDDED_DATABASE/,
    );
  });
});
