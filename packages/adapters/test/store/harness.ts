import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  encodeBase58,
  type PublicKey,
  type Signature,
  type TenantId,
  type TransactionRecord,
} from '@token-actions/core';
import pg from 'pg';
import {
  createEmbeddedPostgresClient,
  createPgliteClient,
  createPostgresClient,
  migrate,
  type SqlClient,
} from '../../src/store/index.js';
import { postgresReachable, requireUnderCi, TEST_DATABASE_URL } from '../support/services.js';

/** The PostgreSQL of the real variants (TEST_DATABASE_URL; see ../support/services.ts). */
export const DATABASE_URL = TEST_DATABASE_URL;

/** False only outside CI, when PostgreSQL does not answer: its variants then skip with a warning. */
export const POSTGRES_REACHABLE = requireUnderCi('PostgreSQL', DATABASE_URL, await postgresReachable());

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

/** A migrated embedded PostgreSQL server in a temporary directory, removed on close. */
export async function createMigratedEmbeddedPostgres(): Promise<{ sql: SqlClient; close(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'ta-embedded-pg-'));
  const sql = await createEmbeddedPostgresClient({ dataDir: join(dir, 'postgres') });
  await migrate(sql);
  return {
    sql,
    async close() {
      await sql.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function truncateAll(sql: SqlClient): Promise<void> {
  await sql.query(
    'TRUNCATE webhook_endpoints, transaction_events, transactions, escrows, idempotency_keys, api_keys, managed_keys RESTART IDENTITY CASCADE',
  );
  // The default tenant is the migration's, as in a fresh database.
  await sql.query("DELETE FROM tenants WHERE id <> 'default'");
  await sql.query("UPDATE tenants SET treasury_payments = true WHERE id = 'default'");
}

export function randomSignature(): Signature {
  return encodeBase58(crypto.getRandomValues(new Uint8Array(64))) as Signature;
}

export function randomPublicKey(): PublicKey {
  return encodeBase58(crypto.getRandomValues(new Uint8Array(32))) as PublicKey;
}

/** A pending SOL donation of `tenant`, recorded at `at`: the minimum a status change needs. */
export function pendingTransaction(tenant: TenantId, at: Date): TransactionRecord {
  return {
    id: randomSignature(),
    tenant,
    kind: 'donation',
    status: 'pending',
    currency: 'SOL',
    amount: 1_000_000_000n,
    from: randomPublicKey(),
    to: randomPublicKey(),
    priority: 'Medium',
    computeUnitPrice: 1n,
    computeUnitLimit: 200_000,
    feeLamports: 5_000n,
    wire: crypto.getRandomValues(new Uint8Array(200)),
    blockhash: randomPublicKey(),
    lastValidBlockHeight: 1_000n,
    createdAt: at,
    updatedAt: at,
  };
}
