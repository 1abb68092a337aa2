import { type ClockPort, type OAuthStore, registerClient } from '@token-actions/core';

export {
  type ClientRegistration,
  checkRedirectUri,
  OAUTH_SCOPES,
  type RegisteredClient,
  registerClient,
} from '@token-actions/core';

export interface DemoClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
}

export const DEMO_CLIENT_ID = 'demo-client';

/**
 * The embedded default's demo client: a confidential client with both scopes. Its secret is new
 * at every start (only a hash is kept), so the start-up banner and dev-credentials.json always
 * hold a working one. The default redirect URI is this server's demo callback page, which shows
 * the code so a newcomer can finish the flow with curl.
 */
export async function seedDemoClient(deps: {
  store: OAuthStore;
  clock: ClockPort;
  issuer: string;
  redirectUri?: string;
  /** Further redirect URIs it accepts (the API reference page); `redirectUri` stays the one shown. */
  extraRedirectUris?: readonly string[];
}): Promise<DemoClientCredentials> {
  const redirectUri = deps.redirectUri ?? `${deps.issuer.replace(/\/+$/, '')}/oauth/demo/callback`;
  const registered = await registerClient(deps, {
    clientId: DEMO_CLIENT_ID,
    name: 'Demo client',
    type: 'confidential',
    redirectUris: [redirectUri, ...(deps.extraRedirectUris ?? [])],
  });
  if (registered.isErr())
    throw new Error(`could not seed the demo OAuth client: ${registered.error.message}`);
  return { clientId: registered.value.client.id, clientSecret: registered.value.clientSecret!, redirectUri };
}
