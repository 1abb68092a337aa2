import {
  type ActionDeps,
  deliverWebhooks,
  notifySwaps,
  publishTransactionEvents,
  type SwapDeps,
  settleExpiredEscrows,
  settleSwaps,
  trackingPass,
  type WebhookEndpointStore,
} from '@token-actions/core';

import type { RuntimeLogger } from './logger.js';

export interface LoopOptions {
  readonly intervalMs: number;
  readonly logger: RuntimeLogger;
  /** Names this worker's leases; unique per process. */
  readonly workerId?: string;
  /** Idempotency keys are kept at least this long (24 h). */
  readonly idempotencyRetentionMs?: number;
  /** When set, each pass also settles the pool book of swaps whose transaction became terminal,
   * queues their clients' notifications and delivers due webhooks. */
  readonly swaps?: SwapDeps;
  /** With `swaps`: tenants' endpoints, whose transactions' status changes each pass queues. */
  readonly webhookEndpoints?: WebhookEndpointStore;
  /** A confirmed transaction is not polled again for this long (`finalityWaitMs(config)`). */
  readonly finalityWaitMs?: number;
}

/**
 * How long after a transaction is seen confirmed it cannot be final yet: it was confirmed at
 * least one slot after it landed and is final `FINALITY_DEPTH_SLOTS` after, so about
 * (depth - 1) slots; three quarters of that, as slots run late or early. 9.3 s at the defaults
 * (32 slots of 400 ms, as on mainnet).
 */
export function finalityWaitMs(config: {
  readonly SLOT_INTERVAL_MS: number;
  readonly FINALITY_DEPTH_SLOTS: number;
}): number {
  return Math.floor(((config.FINALITY_DEPTH_SLOTS - 1) * config.SLOT_INTERVAL_MS * 3) / 4);
}

export interface RunningLoops {
  /** Runs one pass of every loop now (tests and shutdown use it). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

export type PassOptions = Omit<LoopOptions, 'intervalMs'> & {
  /** Pace of the passes: sizes the tracking and delivery leases. */
  readonly intervalMs: number;
};

/**
 * One pass of the background work: confirmation tracking, rebroadcast of pending transactions
 * inside their blockhash window, escrow expiry actions, swap settlement and webhook delivery, and
 * (at most once a minute) cleanup of old idempotency keys. Failures are logged, never thrown past
 * a step, so one failing step does not starve the others.
 */
export function createLoopPass(deps: ActionDeps, options: PassOptions): () => Promise<void> {
  const retention = options.idempotencyRetentionMs ?? 24 * 3600_000;
  let lastPurge = 0;
  const workerId = options.workerId ?? `worker-${crypto.randomUUID()}`;

  async function pass(): Promise<void> {
    const tracked = await trackingPass(deps, {
      owner: workerId,
      leaseMs: Math.max(10_000, options.intervalMs * 10),
      ...(options.finalityWaitMs ? { finalityWaitMs: options.finalityWaitMs } : {}),
    });
    if (tracked.isErr()) options.logger.warn({ code: tracked.error.code }, 'tracking pass failed');
    const escrows = await settleExpiredEscrows(deps);
    if (escrows.isErr()) options.logger.warn({ code: escrows.error.code }, 'escrow expiry failed');
    else if (escrows.value.settled + escrows.value.failed > 0)
      options.logger.info(escrows.value, 'expired escrows');
    if (options.swaps) await swapPass(options.swaps);
    const now = deps.clock.now().getTime();
    if (now - lastPurge > 60_000) {
      lastPurge = now;
      const purged = await deps.store.idempotency.purgeOlderThan(new Date(now - retention));
      if (purged.isErr()) options.logger.warn({ code: purged.error.code }, 'idempotency purge failed');
    }
  }

  // Runs after the tracking pass so the outbox statuses it reads are fresh; every step is
  // idempotent (compare-and-set settlement, id-keyed queueing, leased deliveries).
  async function swapPass(swaps: SwapDeps): Promise<void> {
    const settled = await settleSwaps(swaps);
    if (settled.isErr()) options.logger.warn({ code: settled.error.code }, 'swap settlement failed');
    const notified = await notifySwaps(swaps);
    if (notified.isErr()) options.logger.warn({ code: notified.error.code }, 'swap notification failed');
    if (options.webhookEndpoints) {
      const published = await publishTransactionEvents({
        endpoints: options.webhookEndpoints,
        webhooks: swaps.webhooks,
        clock: swaps.clock,
        maxAttempts: swaps.swapPolicies.webhookMaxAttempts,
      });
      if (published.isErr())
        options.logger.warn({ code: published.error.code }, 'transaction event publication failed');
    }
    const delivered = await deliverWebhooks(swaps, { leaseMs: Math.max(30_000, options.intervalMs * 10) });
    if (delivered.isErr()) options.logger.warn({ code: delivered.error.code }, 'webhook delivery failed');
    else if (delivered.value.retrying + delivered.value.dead > 0)
      options.logger.info(delivered.value, 'webhook deliveries');
  }

  return pass;
}

/** One pass of every loop, for a scheduler that wakes the process (an edge cron trigger). */
export async function runLoopsOnce(deps: ActionDeps, options: PassOptions): Promise<void> {
  await createLoopPass(deps, options)();
}

/**
 * The background work on a timer (see `createLoopPass`). A pass never overlaps the previous one,
 * and a failing pass is logged and retried on the next tick.
 */
export function startLoops(deps: ActionDeps, options: LoopOptions): RunningLoops {
  let running: Promise<void> | undefined;
  let stopped = false;
  const pass = createLoopPass(deps, options);

  function tick(): Promise<void> {
    if (!running) {
      running = pass()
        .catch((error: unknown) => options.logger.error({ err: String(error) }, 'worker pass crashed'))
        .finally(() => {
          running = undefined;
        });
    }
    return running;
  }

  const timer = setInterval(() => {
    if (!stopped) void tick();
  }, options.intervalMs);
  timer.unref?.();

  return {
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
