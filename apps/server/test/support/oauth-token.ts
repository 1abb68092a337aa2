/**
 * An access token from the real service, the way a client gets one: register a client (admin
 * route), sign in on the consent page with a wallet (SIWS), exchange the code with PKCE through
 * oauth4webapi. The wallet keeps its key so tests can also sign transactions with it.
 */
import * as oauth from 'oauth4webapi';
import {
  approveWithWallet,
  authorizeUrl,
  createTestWallet,
  type TestWallet,
} from '../fixtures/oauth-harness.js';

export interface ClientToken {
  readonly accessToken: string;
  readonly clientId: string;
  readonly wallet: TestWallet;
}

export async function registerOAuthClient(
  baseUrl: string,
  adminToken: string,
  options: { webhookUrl?: string; redirectUri?: string } = {},
): Promise<{ clientId: string; clientSecret: string; redirectUri: string }> {
  const redirectUri = options.redirectUri ?? 'http://127.0.0.1/callback';
  const res = await fetch(`${baseUrl}/oauth/clients`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Swap test client',
      redirect_uris: [redirectUri],
      scope: 'read write',
      ...(options.webhookUrl ? { webhook_url: options.webhookUrl } : {}),
    }),
  });
  if (res.status !== 201) throw new Error(`client registration answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { client_id: string; client_secret: string };
  return { clientId: body.client_id, clientSecret: body.client_secret, redirectUri };
}

export async function obtainAccessToken(
  baseUrl: string,
  client: { clientId: string; clientSecret: string; redirectUri: string },
  options: { scope?: string; wallet?: TestWallet } = {},
): Promise<ClientToken> {
  const wallet = options.wallet ?? (await createTestWallet());
  const http = {
    fetch: ((input: string | URL | Request, init?: RequestInit) =>
      fetch(input, { ...init, redirect: 'manual' })) as typeof fetch,
    issuer: baseUrl,
  };
  const clientOptions = { [oauth.customFetch]: fetch, [oauth.allowInsecureRequests]: true };
  const issuer = new URL(baseUrl);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...clientOptions, algorithm: 'oauth2' }),
  );
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = authorizeUrl(baseUrl, {
    clientId: client.clientId,
    redirectUri: client.redirectUri,
    scope: options.scope ?? 'read write',
    state,
    codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
  });
  const { location } = await approveWithWallet(http as never, wallet, url);
  if (!location) throw new Error('the consent page did not redirect');
  const oauthClient: oauth.Client = { client_id: client.clientId };
  const params = oauth.validateAuthResponse(as, oauthClient, location, state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    oauthClient,
    await oauth.authorizationCodeGrantRequest(
      as,
      oauthClient,
      oauth.ClientSecretBasic(client.clientSecret),
      params,
      client.redirectUri,
      verifier,
      clientOptions,
    ),
  );
  return { accessToken: tokens.access_token, clientId: client.clientId, wallet };
}
