import { mkdir } from 'node:fs/promises';
import {
  createPgInstanceLease,
  KEY_CHANGES_CHANNEL,
  nodeKeySigner,
  type SqlClient,
  withApiKeyCache,
} from '@token-actions/adapters';
import type { ActionDeps, ClockPort } from '@token-actions/core';
import type { Localnet } from '@token-actions/localnet';
import { composeChain } from './chain.js';
import type { CoreConfig } from './config/fragments.js';
import { randomIds, systemClock, wireCore } from './core-deps.js';
import { openDatabase } from './database.js';
import { loadMasterKey } from './keys.js';
import type { RuntimeLogger } from './logger.js';

export { randomIds, unwrapOrThrow } from './core-deps.js';

/** What every process running the use-cases shares: the ports, wired from config. */
export interface CoreComposition {
  readonly deps: ActionDeps;
  readonly sql: SqlClient;
  readonly isLocalnet: boolean;
  /** The embedded localnet, when the chain is one (tests advance its slots). */
  readonly localnet?: Localnet;
  readonly masterKey: Uint8Array;
  readonly masterKeyGenerated: boolean;
  /** This process's id in `process_instances`, held by a heartbeat until `close`. */
  readonly instanceId: string;
  close(): Promise<void>;
}

/** The composition root shared by the server and the standalone worker. */
export async function composeCore(config: CoreConfig, logger: RuntimeLogger): Promise<CoreComposition> {
  await mkdir(config.DATA_DIR, { recursive: true, mode: 0o700 });
  const master = await loadMasterKey(config);
  if (master.generated) {
    logger.warn(
      { path: master.source.kind === 'file' ? master.source.path : undefined },
      'GENERATED A NEW KEYSTORE MASTER KEY: every managed account is encrypted under it. Back it up; set KEYSTORE_MASTER_KEY in production.',
    );
  }

  const sql = await openDatabase(config, { logger });
  const instance = await holdInstanceLease(sql, config, systemClock, logger);
  const composedChain = await composeChain(config, master.key, logger);
  const wired = await wireCore({
    config,
    sql,
    masterKey: master.key,
    chain: composedChain,
    instanceId: instance.id,
    keySigner: nodeKeySigner(),
  });
  // API keys are verified from memory for at most API_KEY_CACHE_TTL_MS; a revocation reaches every
  // process sharing the database through LISTEN/NOTIFY at once (only processes that verify keys
  // listen). Edge isolates keep no such cache: they read the key on each request.
  const keyCache = withApiKeyCache(wired.store, {
    ttlMs: config.API_KEY_CACHE_TTL_MS,
    ...(sql.listen ? { subscribe: (handlers) => sql.listen!(KEY_CHANGES_CHANNEL, handlers) } : {}),
  });
  const deps: ActionDeps = { ...wired, store: keyCache.store };

  return {
    deps,
    sql,
    isLocalnet: composedChain.isLocalnet,
    ...(composedChain.localnet ? { localnet: composedChain.localnet } : {}),
    masterKey: master.key,
    masterKeyGenerated: master.generated,
    instanceId: instance.id,
    async close() {
      await keyCache.close();
      await instance.stop();
      await composedChain.close();
      await sql.close();
    },
  };
}

/**
 * Takes this process's instance lease before anything can claim an idempotency key under it, and
 * renews it on a heartbeat (a third of its length, so one missed beat does not lose it). On the
 * embedded database only one process can run, so every other lease is ended at start-up: a key
 * the previous process left in progress is resumed by the first retry after a restart.
 */
async function holdInstanceLease(
  sql: SqlClient,
  config: CoreConfig,
  clock: ClockPort,
  logger: RuntimeLogger,
): Promise<{ id: string; stop(): Promise<void> }> {
  const lease = createPgInstanceLease(sql, { id: randomIds.next('proc'), leaseMs: config.INSTANCE_LEASE_MS });
  await lease.renew(clock.now());
  if (!config.DATABASE_URL) await lease.endOthers();
  let renewing: Promise<void> = Promise.resolve();
  const timer = setInterval(
    () => {
      renewing = lease.renew(clock.now()).catch((error: unknown) => {
        logger.warn({ err: String(error) }, 'instance lease renewal failed');
      });
    },
    Math.max(100, Math.floor(config.INSTANCE_LEASE_MS / 3)),
  );
  timer.unref();
  return {
    id: lease.id,
    async stop() {
      clearInterval(timer);
      await renewing;
      await lease.release().catch(() => {});
    },
  };
}
