export {
  createInProcessChain,
  type EngineAccount,
  type EngineRejection,
  type EngineSimulation,
  type LocalnetEngine,
} from './in-process/index.js';
export {
  type DiscoverCurrenciesOptions,
  type DiscoveredCurrencies,
  discoverRpcCurrencies,
} from './rpc/discover.js';
export { createRpcChain, type RpcChainConfig } from './rpc/index.js';
export * from './rpc/transport/index.js';
export { randomWebSigner } from './shared/ed25519-web.js';
export type { LocalSigner, NewSigner } from './shared/signer.js';
