import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TENANT, U64_MAX } from '@token-actions/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEmbeddedPostgresClient,
  createPgliteClient,
  createPgStore,
  createPostgresClient,
  type Migration,
  migrate,
  migrations,
  type SqlClient,
  type TransactionExecutor,
} from '../../src/store/index.js';
import { DATABASE_URL, POSTGRES_REACHABLE, randomPublicKey, randomSignature } from './harness.js';

interface ClientVariant {
  name: string;
  skip: boolean;
  /** A client on an empty database (or schema), plus a second connection-owning client to it. */
  open(): Promise<{ a: SqlClient; b: SqlClient; dispose(): Promise<void> }>;
}

const variants: ClientVariant[] = [
  {
    name: 'PGlite',
    skip: false,
    async open() {
      // One PGlite instance owns its files, so "two processes" are two callers on one client.
      const a = await createPgliteClient();
      return { a, b: a, dispose: () => a.close() };
    },
  },
  {
    name: 'embedded PostgreSQL',
    skip: false,
    async open() {
      // One process owns an embedded server, so "two processes" are two callers on one client.
      const dir = await mkdtemp(join(tmpdir(), 'ta-embedded-pg-'));
      const a = await createEmbeddedPostgresClient({ dataDir: join(dir, 'postgres') });
      return {
        a,
        b: a,
        async dispose() {
          await a.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !POSTGRES_REACHABLE,
    async open() {
      const schema = `ta_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA "${schema}"`);
      const a = createPostgresClient({ connectionString: DATABASE_URL, schema, max: 4 });
      const b = createPostgresClient({ connectionString: DATABASE_URL, schema, max: 4 });
      return {
        a,
        b,
        async dispose() {
          await a.close();
          await b.close();
          await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          await admin.end();
        },
      };
    },
  },
];

describe.each(variants)('SQL client: $name', (variant) => {
  describe.skipIf(variant.skip)('behaviour', () => {
    let a: SqlClient;
    let b: SqlClient;
    let dispose: () => Promise<void>;

    beforeAll(async () => {
      ({ a, b, dispose } = await variant.open());
    }, 60_000);
    afterAll(() => dispose());

    it('returns int8 and numeric as decimal strings, bytea as bytes, timestamptz as Date', async () => {
      const { rows } = await a.query<Record<string, unknown>>(
        `SELECT 9007199254740993::int8 AS big, $1::numeric(20,0) AS u64, $2::bytea AS bytes, now() AS at, 7::int4 AS small`,
        [U64_MAX.toString(), Uint8Array.from([0, 1, 255])],
      );
      const row = rows[0]!;
      expect(row.big).toBe('9007199254740993');
      expect(row.u64).toBe('18446744073709551615');
      expect(row.bytes).toBeInstanceOf(Uint8Array);
      expect([...(row.bytes as Uint8Array)]).toEqual([0, 1, 255]);
      expect(row.at).toBeInstanceOf(Date);
      expect(row.small).toBe(7);
    });

    it('migrates exactly once when two callers start together', async () => {
      const results = await Promise.all([migrate(a), migrate(b), migrate(a), migrate(b)]);
      const applied = results.flatMap((r) => r.applied);
      expect(applied).toEqual(migrations.map((m) => m.id));
      const { rows } = await a.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
      expect(rows.map((r) => r.id)).toEqual(migrations.map((m) => m.id));
      expect((await migrate(b)).applied).toEqual([]);
    });

    it('creates the core tables', async () => {
      const { rows } = await a.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables
          WHERE table_schema = current_schema() ORDER BY table_name`,
      );
      expect(rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining([
          'api_keys',
          'escrows',
          'idempotency_keys',
          'managed_keys',
          'schema_migrations',
          'transaction_events',
          'transactions',
        ]),
      );
    });

    it('applies later migrations in id order, each once', async () => {
      const extra: Migration[] = [
        {
          id: '9001_second',
          sql: 'ALTER TABLE probe_later ADD COLUMN b int; INSERT INTO probe_later (a, b) VALUES (2, 2);',
        },
        {
          id: '9000_first',
          sql: 'CREATE TABLE probe_later (a int); INSERT INTO probe_later (a) VALUES (1);',
        },
      ];
      const all = [...migrations, ...extra];
      const [first, second] = await Promise.all([migrate(a, all), migrate(b, all)]);
      expect([...first!.applied, ...second!.applied]).toEqual(['9000_first', '9001_second']);
      const { rows } = await a.query<{ a: number }>('SELECT a FROM probe_later ORDER BY a');
      expect(rows.map((r) => r.a)).toEqual([1, 2]);
    });

    it('rolls a failed migration back entirely', async () => {
      const broken: Migration[] = [
        ...migrations,
        { id: '9090_broken', sql: 'CREATE TABLE probe_broken (a int); SELECT no_such_function();' },
      ];
      await expect(migrate(a, broken)).rejects.toBeDefined();
      const { rows } = await a.query(`SELECT 1 FROM schema_migrations WHERE id = '9090_broken'`);
      expect(rows).toHaveLength(0);
      const { rows: tables } = await a.query(
        `SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'probe_broken'`,
      );
      expect(tables).toHaveLength(0);
    });

    it('commits a transaction and rolls it back on error', async () => {
      await a.query('CREATE TABLE IF NOT EXISTS probe_tx (n int)');
      await a.transaction(async (tx) => {
        await tx.query('INSERT INTO probe_tx (n) VALUES ($1)', [1]);
      });
      await expect(
        a.transaction(async (tx) => {
          await tx.query('INSERT INTO probe_tx (n) VALUES ($1)', [2]);
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      const { rows } = await b.query<{ n: number }>('SELECT n FROM probe_tx ORDER BY n');
      expect(rows.map((r) => r.n)).toEqual([1]);
    });

    /**
     * Nothing of the failed transactions is in `table`, and the client is fit for the next one: a
     * transaction sending `n` commits it.
     */
    const expectNothingKeptThenCommits = async (table: string, n: number) => {
      expect((await b.query(`SELECT n FROM ${table}`)).rows).toEqual([]);
      await a.transaction(async (tx) => tx.send(`INSERT INTO ${table} (n) VALUES ($1)`, [n]));
      const after = await b.query<{ n: number }>(`SELECT n FROM ${table}`);
      expect(after.rows.map((r) => r.n)).toEqual([n]);
    };

    it('runs the first statement inside the transaction, though BEGIN is not waited for', async () => {
      const ids = await a.transaction(async (tx) => {
        const first = await tx.query<{ id: string }>('SELECT txid_current()::text AS id');
        const second = await tx.query<{ id: string }>('SELECT txid_current()::text AS id');
        return [first.rows[0]!.id, second.rows[0]!.id];
      });
      // Outside a transaction every statement would have had its own.
      expect(ids[0]).toBe(ids[1]);
    });

    it('commits what `send` sent without waiting, in order with what was waited for', async () => {
      await a.query('CREATE TABLE IF NOT EXISTS probe_send (n int)');
      await a.transaction(async (tx) => {
        tx.send('INSERT INTO probe_send (n) VALUES ($1)', [10]);
        await tx.query('INSERT INTO probe_send (n) SELECT max(n) + 1 FROM probe_send');
        tx.send('INSERT INTO probe_send (n) SELECT max(n) + 1 FROM probe_send');
      });
      const { rows } = await b.query<{ n: number }>('SELECT n FROM probe_send ORDER BY n');
      expect(rows.map((r) => r.n)).toEqual([10, 11, 12]);
    });

    it('rolls the whole transaction back when a sent statement fails, and answers its error', async () => {
      await a.query('CREATE TABLE IF NOT EXISTS probe_send_fail (n int)');
      await expect(
        a.transaction(async (tx) => {
          await tx.query('INSERT INTO probe_send_fail (n) VALUES ($1)', [1]);
          tx.send('INSERT INTO probe_send_fail (n) VALUES ($1)', ['not a number']);
          tx.send('INSERT INTO probe_send_fail (n) VALUES ($1)', [3]);
          return 'answered';
        }),
      ).rejects.toThrow(/invalid input syntax for type integer/);
      await expect(
        a.transaction(async (tx) => {
          tx.send('INSERT INTO probe_send_fail (n) VALUES ($1)', [4]);
          throw new Error('abort after send');
        }),
      ).rejects.toThrow('abort after send');
      await expectNothingKeptThenCommits('probe_send_fail', 5);
    });

    it('refuses a statement issued through a transaction that has ended', async () => {
      let leaked: TransactionExecutor | undefined;
      await a.transaction(async (tx) => {
        leaked = tx;
      });
      expect(() => leaked!.send('SELECT 1')).toThrow('after its transaction ended');
      await expect(leaked!.query('SELECT 1')).rejects.toThrow('after its transaction ended');
    });

    // A server's backends only: one PGlite instance has no connection to lose.
    if (variant.name !== 'PGlite') {
      it('fails a transaction whose connection is lost with statements in flight, and serves the next', async () => {
        await a.query('CREATE TABLE IF NOT EXISTS probe_lost (n int)');
        await expect(
          a.transaction(async (tx) => {
            const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
            tx.send('INSERT INTO probe_lost (n) VALUES ($1)', [1]);
            // Another session ends this one's backend while the insert may still be on the wire.
            await b.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
            tx.send('INSERT INTO probe_lost (n) VALUES ($1)', [2]);
          }),
        ).rejects.toThrow();
        await expectNothingKeptThenCommits('probe_lost', 3);
      });
    }

    it('works as a store right after migrating', async () => {
      const store = createPgStore(a);
      const id = randomSignature();
      const at = new Date();
      const inserted = await store.transactions.insert({
        id,
        tenant: DEFAULT_TENANT,
        kind: 'airdrop',
        status: 'pending',
        to: randomPublicKey(),
        computeUnitPrice: 0n,
        computeUnitLimit: 0,
        feeLamports: 0n,
        wire: new Uint8Array(0),
        blockhash: randomPublicKey(),
        lastValidBlockHeight: 1n,
        createdAt: at,
        updatedAt: at,
      });
      expect(inserted._unsafeUnwrap().inserted).toBe(true);
      expect((await createPgStore(b).transactions.get(id))._unsafeUnwrap()?.wire).toEqual(new Uint8Array(0));
    });
  });
});

describe('PGlite on disk', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ta-pglite-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('keeps data across a restart', async () => {
    const dataDir = join(dir, 'db');
    const first = await createPgliteClient({ dataDir });
    await migrate(first);
    await createPgStore(first).apiKeys.insert({
      id: 'key_1',
      label: 'dev',
      tenant: DEFAULT_TENANT,
      hash: 'h'.repeat(64),
      createdAt: new Date(),
    });
    await first.close();

    const second = await createPgliteClient({ dataDir });
    expect((await migrate(second)).applied).toEqual([]);
    expect((await createPgStore(second).apiKeys.findByHash('h'.repeat(64)))._unsafeUnwrap()?.id).toBe(
      'key_1',
    );
    await second.close();
  }, 60_000);
});

describe('PostgreSQL client options', () => {
  it('refuses a schema name that is not a plain identifier', () => {
    expect(() => createPostgresClient({ connectionString: DATABASE_URL, schema: 'x; DROP TABLE y' })).toThrow(
      /identifier/,
    );
  });

  it('reports an unreachable server as STORE_UNAVAILABLE through the store', async () => {
    const sql = createPostgresClient({ connectionString: 'postgres://postgres@127.0.0.1:1/none', max: 1 });
    const result = await createPgStore(sql).transactions.get(randomSignature());
    expect(result._unsafeUnwrapErr().code).toBe('STORE_UNAVAILABLE');
    await sql.close();
  });
});
