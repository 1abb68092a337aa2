export {
  type ActionsPaths,
  type AdminPaths,
  type ApiClient,
  type CallOptions,
  type ClientOptions,
  type Credential,
  createActionsClient,
  createAdminClient,
  createInterfaceAClient,
  createInterfaceBClient,
  type InterfaceAPaths,
  type InterfaceBPaths,
  type ResultOf,
} from './client.js';
export { type ErrorCode, type RateLimit, TokenActionsError } from './errors.js';
export type { components, operations, paths, webhooks } from './generated/openapi.js';
export {
  type AuthorizationRequest,
  createOAuthClient,
  type OAuthClient,
  type OAuthClientOptions,
  refreshingAccessToken,
  type TokenSet,
} from './oauth.js';
export type { FetchLike, RetryOptions } from './retry.js';

import type { components } from './generated/openapi.js';
/** Every schema of the document by name, e.g. `Schemas['DonationResponse']`. */
export type Schemas = components['schemas'];
