import { DEFAULT_TENANT } from '@token-actions/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPgStore,
  createPostgresClient,
  migrate,
  migrations,
  type SqlClient,
} from '../../src/store/index.js';
import { CLAIM_UNSETTLED_SQL, inIndexOrder } from '../../src/store/pg/store/transactions.js';
import {
  createMigratedEmbeddedPostgres,
  createMigratedPglite,
  createPostgresSchema,
  DATABASE_URL,
  POSTGRES_REACHABLE,
  pendingTransaction,
} from './harness.js';

// A burst of new unsettled rows after the table was last analyzed made the planner read and sort
// every unsettled row for each page the tracker claims. A page must be a walk of the unsettled
// index whatever the statistics say.

interface Variant {
  name: string;
  skip: boolean;
  open(): Promise<{ sql: SqlClient; close(): Promise<void> }>;
}

const variants: Variant[] = [
  {
    name: 'PGlite',
    skip: false,
    async open() {
      const sql = await createMigratedPglite();
      return { sql, close: () => sql.close() };
    },
  },
  { name: 'embedded PostgreSQL', skip: false, open: createMigratedEmbeddedPostgres },
  {
    name: 'PostgreSQL',
    skip: !POSTGRES_REACHABLE,
    async open() {
      const schema = await createPostgresSchema();
      return { sql: schema.sql, close: () => schema.drop() };
    },
  },
];

const SETTLED = 3_000;
const UNSETTLED = 1_000;
const start = new Date('2026-01-01T00:00:00Z');

/** Copies of one recorded row: `count` of them with ids `${prefix}-n`, one millisecond apart. */
async function copies(sql: SqlClient, template: string, prefix: string, count: number, status: string) {
  const columns = (
    await sql.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
        WHERE table_name = 'transactions' AND table_schema = current_schema() ORDER BY ordinal_position`,
    )
  ).rows.map((r) => r.column_name);
  const values = columns.map((column) =>
    column === 'id'
      ? `$2 || '-' || lpad(g::text, 6, '0')`
      : column === 'status'
        ? `$3::text`
        : column === 'created_at' || column === 'updated_at'
          ? `t.created_at + g * interval '1 millisecond'`
          : column === 'request_key'
            ? 'NULL'
            : `t.${column}`,
  );
  await sql.query(
    `INSERT INTO transactions (${columns.join(', ')})
     SELECT ${values.join(', ')} FROM generate_series(1, $4::int) g, transactions t WHERE t.id = $1`,
    [template, prefix, status, count],
  );
}

interface PlanNode {
  readonly 'Node Type'?: string;
  readonly 'Index Name'?: string;
  readonly 'Index Cond'?: string;
  readonly Plans?: readonly PlanNode[];
}

/** Every node of an EXPLAIN (FORMAT JSON) plan, the root first. */
function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

describe.each(variants)('the tracker’s page of unsettled transactions: $name', (variant) => {
  let opened: { sql: SqlClient; close(): Promise<void> } | undefined;

  beforeAll(async () => {
    if (variant.skip) return;
    opened = await variant.open();
    const { sql } = opened;
    const template = pendingTransaction(DEFAULT_TENANT, start);
    (await createPgStore(sql).transactions.insert(template))._unsafeUnwrap();
    // The table as the statistics last saw it: everything settled.
    await copies(sql, template.id, 'settled', SETTLED, 'finalized');
    await sql.query('DELETE FROM transactions WHERE id = $1', [template.id]);
    await sql.query('ANALYZE transactions');
    // Then a burst the statistics know nothing of.
    const burst = pendingTransaction(DEFAULT_TENANT, new Date(start.getTime() + 60_000));
    (await createPgStore(sql).transactions.insert(burst))._unsafeUnwrap();
    await copies(sql, burst.id, 'unsettled', UNSETTLED, 'pending');
    await sql.query('DELETE FROM transactions WHERE id = $1', [burst.id]);
  }, 120_000);
  afterAll(() => opened?.close());

  it.skipIf(variant.skip)('is planned as a walk of the unsettled index, with no sort', async () => {
    const { sql } = opened!;
    // A page after the first: the cursor is where the previous page ended.
    const cursor = new Date(start.getTime() + 60_000 + UNSETTLED / 2);
    const params = ['worker-a', 250, 10_000, new Date(), cursor.toISOString(), 'unsettled-000500', null];
    const explained = await inIndexOrder(sql, (db) =>
      db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${CLAIM_UNSETTLED_SQL}`, params),
    );
    const raw = explained.rows[0]!['QUERY PLAN'];
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
    const all = planNodes(plan[0].Plan);
    const nodes = all.map((n) => `${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : ''}`);
    expect(nodes).toContain('Index Scan transactions_unsettled_order_idx');
    expect(nodes.filter((n) => /Sort|Bitmap/.test(n))).toEqual([]);
    // The walk starts at the cursor instead of reading past every row before it.
    const walks = all.filter((n) => n['Index Name'] === 'transactions_unsettled_order_idx');
    expect(walks.map((n) => n['Index Cond'] ?? '')).toEqual([expect.stringMatching(/created_at >=/)]);
  });

  it.skipIf(variant.skip)('pages through the burst oldest first, each row once', async () => {
    const { sql } = opened!;
    const store = createPgStore(sql);
    const seen: string[] = [];
    let after: { createdAt: Date; id: string } | undefined;
    for (;;) {
      const page = (await store.transactions.claimUnsettled('worker-a', 250, 10_000, after))._unsafeUnwrap();
      if (page.length === 0) break;
      seen.push(...page.map((t) => t.id));
      const last = page.at(-1)!;
      after = { createdAt: last.createdAt, id: last.id };
    }
    expect(seen).toHaveLength(UNSETTLED);
    expect(seen).toEqual(
      Array.from({ length: UNSETTLED }, (_, i) => `unsettled-${String(i + 1).padStart(6, '0')}`),
    );
  });
});

describe.skipIf(!POSTGRES_REACHABLE)('migration 0007 on PostgreSQL', () => {
  it('finds the index an operator built CONCURRENTLY beforehand, and drops the old one', async () => {
    const schema = await createPostgresSchema();
    try {
      // A fresh schema migrated up to 0006, as a deployment that has not run 0007 yet.
      await schema.sql.query(`DROP SCHEMA IF EXISTS "${schema.schema}" CASCADE`);
      await schema.sql.query(`CREATE SCHEMA "${schema.schema}"`);
      const before = migrations.filter((m) => m.id < '0007');
      const after = migrations.filter((m) => m.id >= '0007');
      await migrate(schema.sql, before);
      // CONCURRENTLY cannot run inside a transaction: a plain connection, one statement.
      const plain = createPostgresClient({ connectionString: DATABASE_URL, schema: schema.schema, max: 1 });
      try {
        await plain.query(
          `CREATE INDEX CONCURRENTLY transactions_unsettled_order_idx ON transactions (created_at, id COLLATE "C")
             WHERE status IN ('pending', 'processed', 'confirmed')`,
        );
      } finally {
        await plain.close();
      }
      expect((await migrate(schema.sql)).applied).toEqual(after.map((m) => m.id));
      const indexes = await schema.sql.query<{ indexname: string }>(
        `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'transactions'
           AND indexname LIKE 'transactions_unsettled%' ORDER BY indexname`,
        [schema.schema],
      );
      expect(indexes.rows.map((r) => r.indexname)).toEqual(['transactions_unsettled_order_idx']);
    } finally {
      await schema.drop();
    }
  });
});
