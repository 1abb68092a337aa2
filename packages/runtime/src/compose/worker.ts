import type { ActionDeps } from '@token-actions/core';
import type { CoreConfig } from '../config/fragments.js';
import type { RuntimeLogger } from '../logger.js';
import type { RunningLoops } from '../loops.js';
import { composeNodePorts, openNodeProcess, startNodeLoops } from '../node-process.js';
import type { SwapComposition } from '../swaps.js';

export interface WorkerComposition {
  readonly deps: ActionDeps;
  readonly swaps: SwapComposition;
  /** The background loops on a timer, their leases held under `workerId`. */
  startLoops(workerId: string): RunningLoops;
  close(): Promise<void>;
}

/**
 * The standalone worker's composition, used by its entry (apps/worker): the process's database,
 * master key, lease and chain, and the ports the loops use, including the swap side, so swap
 * settlement and webhook delivery run here and servers can run with RUN_WORKER=false. It serves
 * no HTTP: no metrics, no rate limiter, no access-token or pool cache, and it leaves pool seeding
 * to the server.
 */
export async function composeWorker(config: CoreConfig, logger: RuntimeLogger): Promise<WorkerComposition> {
  const node = await openNodeProcess(config, logger);
  const { deps, swaps, stores } = await composeNodePorts(node, {
    config,
    logger,
    seedPools: false,
    serving: false,
  });
  return {
    deps,
    swaps,
    startLoops: (workerId) => startNodeLoops({ deps, swaps }, config, logger, workerId),
    async close() {
      await stores.close();
      await node.close();
    },
  };
}
