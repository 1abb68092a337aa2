export { type SiwsFields, siwsMessage, verifyWalletSignature } from '@token-actions/core';
export {
  type ClientRegistration,
  checkRedirectUri,
  DEMO_CLIENT_ID,
  type DemoClientCredentials,
  OAUTH_SCOPES,
  type RegisteredClient,
  registerClient,
  seedDemoClient,
} from './clients.js';
export {
  createOAuthRoutes,
  type OAuthLogger,
  type OAuthRouteContext,
  type OAuthRoutesDeps,
} from './routes.js';
export { type BearerPrincipal, resolveAccessToken } from './tokens.js';
