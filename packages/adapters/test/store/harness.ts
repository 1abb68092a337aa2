import { encodeBase58, type PublicKey, type Signature } from '@token-actions/core';
import pg from 'pg';
import { createPgliteClient, createPostgresClient, migrate, type SqlClient } from '../../src/store/index.js';

export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EAI_AGAIN',
]);

/**
 * Whether the PostgreSQL server answers at all. Only an unreachable server skips its tests: a
 * server that answers but refuses us (wrong role, missing database) is a failure to see.
 */
export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = String((error as Error).message ?? '');
    if ((code && UNREACHABLE.has(code)) || /timeout/i.test(message)) return false;
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const POSTGRES_REACHABLE = await postgresReachable();
if (!POSTGRES_REACHABLE)
  console.warn(`PostgreSQL at ${DATABASE_URL} is unreachable: its test variants are skipped`);

/** A fresh, migrated schema of its own for one test file, dropped afterwards. */
export async function createPostgresSchema(): Promise<{
  sql: SqlClient;
  schema: string;
  drop(): Promise<void>;
}> {
  const schema = `ta_test_${process.pid}_${encodeBase58(crypto.getRandomValues(new Uint8Array(6))).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.end();
  const sql = createPostgresClient({ connectionString: DATABASE_URL, schema, max: 10 });
  await migrate(sql);
  return {
    sql,
    schema,
    async drop() {
      await sql.close();
      const again = new pg.Client({ connectionString: DATABASE_URL });
      await again.connect();
      await again.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await again.end();
    },
  };
}

export async function createMigratedPglite(): Promise<SqlClient> {
  const sql = await createPgliteClient();
  await migrate(sql);
  return sql;
}

export async function truncateAll(sql: SqlClient): Promise<void> {
  await sql.query(
    'TRUNCATE transaction_events, transactions, escrows, idempotency_keys, api_keys, managed_keys RESTART IDENTITY CASCADE',
  );
}

export function randomSignature(): Signature {
  return encodeBase58(crypto.getRandomValues(new Uint8Array(64))) as Signature;
}

export function randomPublicKey(): PublicKey {
  return encodeBase58(crypto.getRandomValues(new Uint8Array(32))) as PublicKey;
}
