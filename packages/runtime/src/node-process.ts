import { mkdir } from 'node:fs/promises';
import { createPgInstanceLease, nodeKeySigner, type SqlClient } from '@token-actions/adapters';
import type { ClockPort } from '@token-actions/core';
import { type ComposedChain, composeChain } from './chain.js';
import type { CoreConfig } from './config/fragments.js';
import { randomIds, systemClock } from './core-deps.js';
import { openDatabase } from './database.js';
import { loadMasterKey } from './keys.js';
import type { RuntimeLogger } from './logger.js';
import { finalityWaitMs, type RunningLoops, startLoops } from './loops.js';
import { listeningCaches } from './node-caches.js';
import { composePorts, type Ports, type PortsInput } from './ports.js';

/** What a Node process runs on: its data directory, master key, database, lease and chain. */
export interface NodeProcess {
  readonly sql: SqlClient;
  readonly masterKey: Uint8Array;
  readonly chain: ComposedChain;
  /** This process's id in `process_instances`, held by a heartbeat until `close`. */
  readonly instanceId: string;
  close(): Promise<void>;
}

/**
 * The part of a Node process's composition the server and the worker share: DATA_DIR (created
 * 0700), the master key (generated with a warning when neither configured nor on disk), the
 * migrated database, the instance lease, and the chain (embedded localnet or JSON-RPC).
 */
export async function openNodeProcess(config: CoreConfig, logger: RuntimeLogger): Promise<NodeProcess> {
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
  const chain = await composeChain(config, master.key, logger);
  return {
    sql,
    masterKey: master.key,
    chain,
    instanceId: instance.id,
    async close() {
      await instance.stop();
      await chain.close();
      await sql.close();
    },
  };
}

/**
 * The ports of a Node process over what `openNodeProcess` opened: writes coalesced (the
 * connection pool is the process's own), idempotency claims under its lease, keys signed by
 * node:crypto, and the API-key cache, which every Node process keeps (it listens only once a key
 * is verified).
 */
export function composeNodePorts(
  node: NodeProcess,
  input: Pick<PortsInput, 'config' | 'logger' | 'seedPools' | 'metrics'> & {
    readonly config: CoreConfig;
    /** The caches only a serving process needs. */
    readonly serving: boolean;
  },
): Promise<Ports> {
  const { config, serving } = input;
  return composePorts({
    config,
    sql: node.sql,
    masterKey: node.masterKey,
    chain: node.chain,
    logger: input.logger,
    coalesceWrites: true,
    instanceId: node.instanceId,
    keySigner: nodeKeySigner(),
    caches: listeningCaches(node.sql, config, { apiKeys: true, accessTokens: serving, pools: serving }),
    seedPools: input.seedPools,
    ...(input.metrics ? { metrics: input.metrics } : {}),
  });
}

/** The background loops of a Node process over its ports, on a timer of WORKER_INTERVAL_MS. */
export function startNodeLoops(
  ports: Pick<Ports, 'deps' | 'swaps'>,
  config: CoreConfig,
  logger: RuntimeLogger,
  workerId?: string,
): RunningLoops {
  return startLoops(ports.deps, {
    intervalMs: config.WORKER_INTERVAL_MS,
    finalityWaitMs: finalityWaitMs(config),
    logger,
    ...(workerId ? { workerId } : {}),
    swaps: ports.swaps.deps,
    webhookEndpoints: ports.swaps.webhookEndpoints,
  });
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
