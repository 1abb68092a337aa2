export {
  createInterfaceBGuard,
  type InterfaceBEnv,
  type InterfaceBGuard,
  type InterfaceBGuardDeps,
  type InterfaceBVariables,
  principalOf,
  type RateLimitInfo,
} from './guard.js';
