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
export {
  createRpcTransport,
  DEFAULT_RPC_TRANSPORT_POLICY,
  type EndpointHealth,
  JsonRpcResponseError,
  type RpcAttemptEvent,
  type RpcAttemptOutcome,
  RpcBadResponseError,
  type RpcCallOptions,
  RpcHttpError,
  RpcNetworkError,
  RpcRetriesExhaustedError,
  type RpcTransport,
  type RpcTransportConfig,
  RpcTransportError,
  type RpcTransportObserver,
  type RpcTransportPolicy,
  redactEndpoint,
} from './rpc/transport/index.js';
export { randomWebSigner } from './shared/ed25519-web.js';
export type { LocalSigner, NewSigner } from './shared/signer.js';
