import { boundHeapGrowth, composeWorker, parseEnv } from '@token-actions/runtime';
import { pino } from 'pino';
import { type WorkerConfig, WorkerConfigSchema } from './config.js';

/**
 * The worker as a process of its own: confirmation tracking, rebroadcast, escrow expiry and
 * cleanup, swap settlement and webhook delivery, sharing PostgreSQL with the servers (leases keep
 * workers off each other's transactions) and reaching the chain over JSON-RPC. In the embedded
 * default the server runs these loops in-process instead, because one process owns the
 * in-process chain.
 */
async function main() {
  boundHeapGrowth();
  let config: WorkerConfig;
  try {
    config = parseEnv(WorkerConfigSchema, process.env);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const logger = pino({ level: config.LOG_LEVEL, base: undefined });
  const worker = await composeWorker(config, logger);
  const workerId = config.WORKER_ID ?? `worker-${process.pid}`;
  const loops = worker.startLoops(workerId);
  logger.info({ workerId, rpcUrl: config.SOLANA_RPC_URL }, 'worker running');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'worker stopping');
    await loops.stop();
    await worker.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('worker failed to start:', error instanceof Error ? error.message : String(error));
  process.exit(1);
});
