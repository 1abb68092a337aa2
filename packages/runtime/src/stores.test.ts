import { setTimeout as sleep } from 'node:timers/promises';
import { createPgliteClient, migrate, type SqlClient } from '@token-actions/adapters';
import { createApiKey, DEFAULT_TENANT, hashSecret } from '@token-actions/core';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from './core-deps.js';
import { listeningCaches } from './node-caches.js';
import { createServerMetrics, type ServerMetrics } from './observability/metrics.js';
import { composeStores, type StoreOptions, type Stores } from './stores.js';

const failuresOf = async (metrics: ServerMetrics, operation: string) =>
  (await metrics.databaseErrors.get()).values.find((v) => v.labels.operation === operation)?.value ?? 0;

describe('composeStores', () => {
  const opened: Array<{ sql: SqlClient; stores: Stores }> = [];
  afterEach(async () => {
    for (const { sql, stores } of opened.splice(0)) {
      await stores.close();
      await sql.close();
    }
  });

  /** Stores over a fresh database holding one API key, read twice, then an outage of its table. */
  async function keyReadThenOutage(layers: (sql: SqlClient) => Partial<StoreOptions>) {
    const sql = await createPgliteClient();
    await migrate(sql);
    const stores = composeStores(sql, { clock: systemClock, coalesceWrites: false, ...layers(sql) });
    opened.push({ sql, stores });
    const created = await createApiKey(
      { store: stores.store, clock: systemClock },
      { label: 'test', tenant: DEFAULT_TENANT },
    );
    const hash = hashSecret(created._unsafeUnwrap().apiKey);
    // The first read starts the change-notice subscription; one read once it is live is kept.
    expect((await stores.store.apiKeys.findByHash(hash))._unsafeUnwrap()).not.toBeNull();
    await sleep(100);
    expect((await stores.store.apiKeys.findByHash(hash))._unsafeUnwrap()).not.toBeNull();
    await sql.query('DROP TABLE api_keys CASCADE');
    return { stores, hash };
  }

  it("a Node server's stores serve a verified key from memory through an outage and count the reads that fail", async () => {
    const metrics = createServerMetrics({ processMetrics: false });
    const { stores, hash } = await keyReadThenOutage((sql) => ({
      caches: listeningCaches(
        sql,
        { API_KEY_CACHE_TTL_MS: 60_000 },
        { apiKeys: true, accessTokens: true, pools: true },
      ),
      metrics,
    }));
    expect((await stores.store.apiKeys.findByHash(hash))._unsafeUnwrap()).not.toBeNull();
    expect(await failuresOf(metrics, 'apiKeys.findByHash')).toBe(0);
    expect((await stores.store.apiKeys.findByHash('0'.repeat(64))).isErr()).toBe(true);
    expect(await failuresOf(metrics, 'apiKeys.findByHash')).toBe(1);
  });

  it("an edge isolate's stores keep no key in memory: every verification reads the database", async () => {
    const { stores, hash } = await keyReadThenOutage(() => ({}));
    expect((await stores.store.apiKeys.findByHash(hash)).isErr()).toBe(true);
  });
});
