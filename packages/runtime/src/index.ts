// The Node entry of the runtime: one composition per process shape, and what their entries share.
export type { AppParts, ReadinessProbes, TenantWebhookParts } from './app-parts.js';
export {
  type ClientRegistry,
  type ClientRegistryConfig,
  composeClientRegistry,
} from './compose/client-registry.js';
export { composeServer, type ServerComposition, type ServerCompositionConfig } from './compose/server.js';
export { composeWorker, type WorkerComposition } from './compose/worker.js';
export { parseEnv } from './config/env.js';
export {
  bool,
  type ChainConfig,
  ChainConfigSchema,
  type CoreConfig,
  CoreConfigSchema,
  type KeysConfig,
  KeysConfigSchema,
  LoggingConfigSchema,
  type LoopConfig,
  LoopConfigSchema,
  type PolicyConfig,
  PolicyConfigSchema,
  type StateConfig,
  StateConfigSchema,
  type SwapConfig,
  SwapConfigSchema,
} from './config/fragments.js';
export { chooseDatabase, type DatabaseChoice, openDatabase } from './database.js';
export { boundHeapGrowth, HEAP_GROWING_PERCENT } from './heap.js';
export type { RuntimeLogger } from './logger.js';
export type { RunningLoops } from './loops.js';
export { meterFailures, meterWebhookSender } from './observability/metered.js';
export { createServerMetrics, type OutboxSource, type ServerMetrics } from './observability/metrics.js';
export type { SwapComposition } from './swaps.js';
