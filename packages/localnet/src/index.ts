export type { LocalnetConfig } from './config.js';
export { type LocalnetEnv, localnetEnvSchema } from './env.js';
export type { LocalnetListener } from './events/listeners.js';
export { createLocalnet, type Localnet } from './localnet.js';
export type { PubSubServer } from './pubsub/server.js';
export { type LocalnetRpc, type LocalnetRpcOptions, startLocalnetRpc } from './rpc/server.js';
export { localnetSeedFromMasterKey, localnetSeedOf } from './seed-from-env.js';
export type {
  BlockUnavailable,
  EpochInfo,
  IssuedBlockhash,
  LandedStatus,
  LandedTransaction,
  LocalAccount,
  LocalBlock,
  SignatureInfo,
  SimulateOptions,
  Simulation,
  TokenHolding,
  WireRejection,
} from './types.js';
