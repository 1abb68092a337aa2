export { type ComposedChain, composeChain } from './chain.js';
export { composeRpcChain } from './chain-rpc.js';
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
  LoopConfigSchema,
  type PolicyConfig,
  PolicyConfigSchema,
  type StateConfig,
  StateConfigSchema,
  type SwapConfig,
  SwapConfigSchema,
} from './config/fragments.js';
export { type CoreComposition, composeCore, randomIds, unwrapOrThrow } from './core.js';
export { wireCore } from './core-deps.js';
export { chooseDatabase, type DatabaseChoice, openDatabase } from './database.js';
export { boundHeapGrowth, HEAP_GROWING_PERCENT } from './heap.js';
export { loadMasterKey } from './keys.js';
export type { RuntimeLogger } from './logger.js';
export {
  createLoopPass,
  finalityWaitMs,
  type LoopOptions,
  type RunningLoops,
  runLoopsOnce,
  startLoops,
} from './loops.js';
export { composeSwaps, type SwapComposition } from './swaps.js';
