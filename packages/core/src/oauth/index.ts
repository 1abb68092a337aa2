/**
 * The OAuth 2.0 authorization server as framework-free functions (RFC 6749, 7636, 7009, 7662,
 * 7591, 8414, 9207, 9700): each takes its ports and the already-parsed request, and returns a
 * Result that one renderer turns into the HTTP answer.
 */
export {
  type AuthorizationFailure,
  type AuthorizationPageError,
  type AuthorizationRedirect,
  type AuthorizationRequest,
  consentFormParams,
  isAuthorizationPageError,
  isAuthorizationRedirect,
  validateAuthorizationRequest,
} from './authorize.js';
export { authenticateClient, type ClientAuthenticationRequest } from './client-auth.js';
export {
  type ClientRegistration,
  checkRedirectUri,
  type RegisteredClient,
  registerClient,
} from './clients.js';
export { type ConsentPostOrigin, checkConsentOrigin } from './consent-origin.js';
export {
  isOAuthError,
  NO_STORE_HEADERS,
  OAUTH_ERROR_CODES,
  type OAuthError,
  type OAuthErrorCode,
  type OAuthErrorResponse,
  type OAuthFailure,
  oauthError,
  renderOAuthError,
} from './errors.js';
export { type IntrospectionResponse, introspectToken } from './introspect.js';
export { authorizationServerMetadata } from './metadata.js';
export { isFormContentType, OAUTH_SCOPES, tokenEndpointForm } from './params.js';
export {
  type RegistrationRequest,
  type RegistrationResponse,
  registerClientMetadata,
} from './registration.js';
export { revokeToken } from './revoke.js';
export { hashSecret, randomId, sameSecretHash } from './secrets.js';
export {
  type OAuthConfig,
  type OAuthDeps,
  type OAuthEndpoints,
  type OAuthLogger,
  type OAuthSettings,
  oauthSettings,
} from './settings.js';
export {
  authorizationRequestId,
  completeAuthorization,
  issueSignInChallenge,
  type SignInChallenge,
  type SignInDeps,
} from './sign-in.js';
export { type SiwsFields, siwsMessage, verifyWalletSignature, type WalletSignatureVerifier } from './siws.js';
export {
  type AuthorizationCodeGrant,
  exchangeAuthorizationCode,
  grantTokens,
  type RefreshTokenGrant,
  refreshTokens,
  type TokenResponse,
} from './token.js';
export { type BearerPrincipal, resolveAccessToken, type TokenLifetimes } from './tokens.js';
