export {
  createInterfaceBApp,
  type InterfaceBApp,
  type InterfaceBAppOptions,
} from './app.js';
export {
  createInterfaceBGuard,
  type InterfaceBGuard,
  type InterfaceBGuardDeps,
  principalOf,
} from './guard.js';
export {
  type ErrorLogger,
  errorB,
  type InterfaceBEnv,
  type InterfaceBVariables,
  okB,
  type RateLimitInfo,
} from './render.js';
