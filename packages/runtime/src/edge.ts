/**
 * `@token-actions/runtime/edge`: what an edge worker loads (no file system, no embedded database
 * or chain, no Node-only adapter, no pino, no Redis, no prom-client). Migrations stay with the
 * Node CLI.
 */
export type { AppParts, ReadinessProbes, TenantWebhookParts } from './app-parts.js';
export {
  composeEdge,
  type EdgeComposition,
  type EdgeCompositionConfig,
  type EdgeIsolate,
} from './compose/edge.js';
export { parseEnv } from './config/env.js';
export {
  bool,
  ChainConfigSchema,
  CoreConfigSchema,
  KeysConfigSchema,
  LoggingConfigSchema,
  LoopConfigSchema,
  PolicyConfigSchema,
  StateConfigSchema,
  SwapConfigSchema,
} from './config/fragments.js';
export type { RuntimeLogger } from './logger.js';
export type { ServerMetrics } from './observability/metrics.js';
export type { SwapComposition } from './swaps.js';
