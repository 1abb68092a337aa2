/**
 * OAuth 2.0 for interface B on oauth4webapi: discovery (RFC 8414), the authorization code grant
 * with PKCE S256 (RFC 6749 4.1, RFC 7636), refresh with rotation (RFC 9700 4.14) and revocation
 * (RFC 7009). The service signs the user in with their Solana wallet on its consent page; this
 * module builds the URL to send them to and handles what comes back.
 */
import * as oauth from 'oauth4webapi';
import { TokenActionsError } from './errors.js';

export interface OAuthClientOptions {
  /** The service's origin: the issuer of its tokens. */
  readonly issuer: string;
  readonly clientId: string;
  /** A confidential client's secret (sent as client_secret_basic); absent for a public client. */
  readonly clientSecret?: string;
  /** Registered exactly as given (the service compares redirect URIs exactly). */
  readonly redirectUri: string;
  /** A fetch-compatible function; defaults to the global `fetch`. */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** Allows an `http:` issuer, as the embedded localnet's is. Leave off anywhere else. */
  readonly allowInsecureRequests?: boolean;
}

/** What the token endpoint issued. */
export interface TokenSet {
  readonly accessToken: string;
  /** After a refresh: the new (rotated) refresh token, which replaces the one used. */
  readonly refreshToken: string | undefined;
  readonly expiresAt: Date | undefined;
  readonly scope: string | undefined;
}

/** Send the user to `url`; keep `state` and `codeVerifier` (server side, or session storage) for the callback. */
export interface AuthorizationRequest {
  readonly url: URL;
  readonly state: string;
  readonly codeVerifier: string;
}

export interface OAuthClient {
  /** The authorization server's metadata, as discovered. */
  readonly metadata: oauth.AuthorizationServer;
  authorizationUrl(input: { readonly scope: string; readonly state?: string }): Promise<AuthorizationRequest>;
  /** The redirect's URL (or its query) in, tokens out; checks `state` and sends the PKCE verifier. */
  exchangeCode(
    callback: URL | string,
    request: Pick<AuthorizationRequest, 'state' | 'codeVerifier'>,
  ): Promise<TokenSet>;
  /**
   * A new token set for `refreshToken`. The service rotates refresh tokens and treats a used one
   * as stolen: store the returned `refreshToken` and never send the old one again.
   */
  refresh(refreshToken: string): Promise<TokenSet>;
  /** Revokes a token (a refresh token revokes its grant). */
  revoke(token: string, hint?: 'access_token' | 'refresh_token'): Promise<void>;
}

/** Discovers the service's authorization server (`/.well-known/oauth-authorization-server`). */
export async function createOAuthClient(options: OAuthClientOptions): Promise<OAuthClient> {
  const http = {
    ...(options.fetch ? { [oauth.customFetch]: options.fetch } : {}),
    ...(options.allowInsecureRequests ? { [oauth.allowInsecureRequests]: true } : {}),
  };
  const issuer = new URL(options.issuer);
  const metadata = await translated(async () =>
    oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...http, algorithm: 'oauth2' }),
    ),
  );
  const client: oauth.Client = { client_id: options.clientId };
  const auth = options.clientSecret ? oauth.ClientSecretBasic(options.clientSecret) : oauth.None();

  return {
    metadata,
    async authorizationUrl({ scope, state = oauth.generateRandomState() }) {
      if (!metadata.authorization_endpoint) throw new Error('the issuer publishes no authorization_endpoint');
      const codeVerifier = oauth.generateRandomCodeVerifier();
      const url = new URL(metadata.authorization_endpoint);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', options.clientId);
      url.searchParams.set('redirect_uri', options.redirectUri);
      url.searchParams.set('scope', scope);
      url.searchParams.set('state', state);
      url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
      url.searchParams.set('code_challenge_method', 'S256');
      return { url, state, codeVerifier };
    },
    exchangeCode: (callback, { state, codeVerifier }) =>
      translated(async () => {
        const parameters = oauth.validateAuthResponse(
          metadata,
          client,
          toURL(callback, options.redirectUri),
          state,
        );
        const response = await oauth.authorizationCodeGrantRequest(
          metadata,
          client,
          auth,
          parameters,
          options.redirectUri,
          codeVerifier,
          http,
        );
        return tokenSet(await oauth.processAuthorizationCodeResponse(metadata, client, response), undefined);
      }),
    refresh: (refreshToken) =>
      translated(async () => {
        const response = await oauth.refreshTokenGrantRequest(metadata, client, auth, refreshToken, http);
        return tokenSet(await oauth.processRefreshTokenResponse(metadata, client, response), refreshToken);
      }),
    revoke: (token, hint) =>
      translated(async () => {
        const response = await oauth.revocationRequest(metadata, client, auth, token, {
          ...http,
          ...(hint ? { additionalParameters: { token_type_hint: hint } } : {}),
        });
        await oauth.processRevocationResponse(response);
      }),
  };
}

/**
 * An access token that stays valid: refreshed shortly before it expires, one refresh at a time
 * (two concurrent refreshes would present the same refresh token twice, which the service takes
 * for theft and answers by revoking the grant). `onTokens` receives each new set to persist.
 * Pass `accessToken` to `createInterfaceBClient`.
 */
export function refreshingAccessToken(
  client: Pick<OAuthClient, 'refresh'>,
  initial: TokenSet,
  onTokens: (tokens: TokenSet) => void | Promise<void> = () => {},
  marginMs = 30_000,
): () => Promise<string> {
  let current = initial;
  let pending: Promise<TokenSet> | undefined;
  return async () => {
    const expiring = current.expiresAt !== undefined && current.expiresAt.getTime() - marginMs <= Date.now();
    if (!expiring || current.refreshToken === undefined) return current.accessToken;
    pending ??= client
      .refresh(current.refreshToken)
      .then(async (next) => {
        current = next;
        await onTokens(next);
        return next;
      })
      .finally(() => {
        pending = undefined;
      });
    return (await pending).accessToken;
  };
}

function tokenSet(response: oauth.TokenEndpointResponse, previousRefreshToken: string | undefined): TokenSet {
  return {
    accessToken: response.access_token,
    // RFC 6749 6: without a new refresh token in the answer, the client keeps the one it has.
    refreshToken: response.refresh_token ?? previousRefreshToken,
    expiresAt:
      response.expires_in === undefined ? undefined : new Date(Date.now() + response.expires_in * 1000),
    scope: response.scope,
  };
}

/** The callback as a URL; a bare query string (`?code=...&state=...`) is read against the redirect URI. */
function toURL(callback: URL | string, redirectUri: string): URL {
  return callback instanceof URL ? callback : new URL(callback, redirectUri);
}

/** The server's OAuth error answers as `TokenActionsError`s, like every other error of this client. */
async function translated<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError) {
      throw new TokenActionsError({
        status: error.status,
        code: error.error,
        message: error.error_description ?? error.error,
        body: error.cause,
      });
    }
    if (error instanceof oauth.WWWAuthenticateChallengeError) {
      const parameters = error.cause[0]?.parameters;
      throw new TokenActionsError({
        status: error.status,
        code: parameters?.error,
        message: parameters?.error_description ?? error.message,
        body: error.cause,
      });
    }
    throw error;
  }
}
