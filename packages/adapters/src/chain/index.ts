export {
  createLiteSvmChain,
  type EpochInfo,
  type IssuedBlockhash,
  type LandedStatus,
  type LandedTransaction,
  type LiteSvmChainConfig,
  type LocalAccount,
  type LocalnetChain,
  type SimulateOptions,
  type Simulation,
  type TokenHolding,
  type WireRejection,
} from './litesvm/index.js';
export { type LocalnetRpc, type LocalnetRpcOptions, startLocalnetRpc } from './litesvm/rpc-server.js';
export {
  createRpcChain,
  type DiscoverCurrenciesOptions,
  type DiscoveredCurrencies,
  discoverRpcCurrencies,
  type RpcChainConfig,
} from './rpc/index.js';
export type { TransactionErrorJson } from './shared/failure.js';
