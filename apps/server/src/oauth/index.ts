export { type SiwsFields, siwsMessage, verifyWalletSignature } from '@token-actions/core';
export {
  createOAuthApp,
  type OAuthLogger,
  type OAuthRouteContext,
  type OAuthRoutesDeps,
} from './app.js';
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
export { type BearerPrincipal, resolveAccessToken } from './tokens.js';
