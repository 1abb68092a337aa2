/**
 * `@token-actions/runtime/edge`: the composition pieces an edge worker can load (no file system,
 * no embedded database or chain, no Node-only adapters). Migrations stay with the Node CLI.
 */
export { composeRpcChain, type RpcComposedChain } from './chain-rpc.js';
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
export { randomIds, systemClock, unwrapOrThrow, type WireCoreInput, wireCore } from './core-deps.js';
export type { RuntimeLogger } from './logger.js';
export { createLoopPass, type PassOptions, runLoopsOnce } from './loops.js';
export { composeSwaps, type SwapComposition } from './swaps.js';
