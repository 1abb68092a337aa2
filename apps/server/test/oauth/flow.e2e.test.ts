/**
 * The whole flow driven by oauth4webapi, a certified OAuth 2.0 client library.
 */
import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  approveWithWallet,
  authorizeUrl,
  createHarness,
  createTestWallet,
} from '../fixtures/oauth-harness.js';

describe('OAuth 2.0 flow with oauth4webapi', () => {
  it('discovers, authorizes with a wallet, exchanges with PKCE, calls, refreshes, detects reuse, revokes, introspects', async () => {
    const h = createHarness();
    const wallet = await createTestWallet();
    const options = { [oauth.customFetch]: h.fetch as typeof fetch, [oauth.allowInsecureRequests]: true };
    const resourceOptions = {
      [oauth.customFetch]: async (url: string, init: object) => h.fetch(url, init as RequestInit),
      [oauth.allowInsecureRequests]: true,
    };
    const redirectUri = 'https://client.example/callback';

    // Client registration through the admin route.
    const registration = await h.fetch(`${h.issuer}/oauth/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Flow client', redirect_uris: [redirectUri] }),
    });
    expect(registration.status).toBe(201);
    const registered = (await registration.json()) as { client_id: string; client_secret: string };
    const client: oauth.Client = { client_id: registered.client_id };
    const clientAuth = oauth.ClientSecretBasic(registered.client_secret);

    // Discovery (RFC 8414): oauth4webapi checks the issuer identifier matches exactly.
    const issuer = new URL(h.issuer);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }),
    );
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);

    // Authorization request with PKCE; the wallet signs in on the consent page.
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const codeChallenge = await oauth.calculatePKCECodeChallenge(codeVerifier);
    const state = oauth.generateRandomState();
    const url = authorizeUrl(as.authorization_endpoint!, {
      clientId: client.client_id,
      redirectUri,
      scope: 'read',
      state,
      codeChallenge,
    });
    const fixedUrl = new URL(`${h.issuer}/oauth/authorize${url.search}`);
    const { response, location } = await approveWithWallet(h, wallet, fixedUrl);
    expect(response.status).toBe(303);
    expect(location?.origin + (location?.pathname ?? '')).toBe(redirectUri);

    // The authorization response, validated by the client (state, iss per RFC 9207).
    const callbackParams = oauth.validateAuthResponse(as, client, location!, state);
    const tokenResponse = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        clientAuth,
        callbackParams,
        redirectUri,
        codeVerifier,
        options,
      ),
    );
    expect(tokenResponse.token_type).toBe('bearer');
    expect(tokenResponse.scope).toBe('read');
    expect(tokenResponse.expires_in).toBe(h.accessTokenTtlSec);
    const accessToken = tokenResponse.access_token;
    const refreshToken = tokenResponse.refresh_token!;

    // A call with `read`: the token's subject is the wallet that signed in.
    const swapUrl = new URL(`${h.issuer}/v1/project/swap?tokenPair=SOL-USDC`);
    const readRes = await oauth.protectedResourceRequest(
      accessToken,
      'GET',
      swapUrl,
      new Headers(),
      null,
      resourceOptions,
    );
    expect(readRes.status).toBe(200);
    const readBody = (await readRes.json()) as Record<string, unknown>;
    expect(readBody).toMatchObject({
      subject: wallet.address,
      clientId: client.client_id,
      rateLimit: { limit: 100, remaining: 99 },
    });

    // A `write` route answers 403 insufficient_scope with an RFC 6750 challenge, which the client parses.
    const writeError = await oauth
      .protectedResourceRequest(accessToken, 'POST', swapUrl, new Headers(), null, resourceOptions)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(writeError).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    const challengeError = writeError as oauth.WWWAuthenticateChallengeError;
    expect(challengeError.status).toBe(403);
    expect(challengeError.cause[0]).toMatchObject({
      scheme: 'bearer',
      parameters: { error: 'insufficient_scope', scope: 'write' },
    });
    expect(await challengeError.response.json()).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      rateLimit: { limit: 100 },
    });

    // Refresh: a new pair, and the new access token works.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, options),
    );
    expect(refreshed.refresh_token).toBeDefined();
    expect(refreshed.refresh_token).not.toBe(refreshToken);
    expect(refreshed.access_token).not.toBe(accessToken);
    const afterRefresh = await oauth.protectedResourceRequest(
      refreshed.access_token,
      'GET',
      swapUrl,
      new Headers(),
      null,
      resourceOptions,
    );
    expect(afterRefresh.status).toBe(200);

    // Reusing the rotated refresh token is refused and revokes the whole family.
    const reuse = await oauth
      .refreshTokenGrantRequest(as, client, clientAuth, refreshToken, options)
      .then((res) => oauth.processRefreshTokenResponse(as, client, res))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(reuse).toBeInstanceOf(oauth.ResponseBodyError);
    expect((reuse as oauth.ResponseBodyError).error).toBe('invalid_grant');
    const familyGone = await oauth
      .refreshTokenGrantRequest(as, client, clientAuth, refreshed.refresh_token!, options)
      .then((res) => oauth.processRefreshTokenResponse(as, client, res))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((familyGone as oauth.ResponseBodyError).error).toBe('invalid_grant');
    const revokedCall = await oauth
      .protectedResourceRequest(refreshed.access_token, 'GET', swapUrl, new Headers(), null, resourceOptions)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((revokedCall as oauth.WWWAuthenticateChallengeError).cause[0]?.parameters.error).toBe(
      'invalid_token',
    );
    for (const token of [accessToken, refreshToken, refreshed.access_token, refreshed.refresh_token!]) {
      const info = await oauth.processIntrospectionResponse(
        as,
        client,
        await oauth.introspectionRequest(as, client, clientAuth, token, options),
      );
      expect(info.active).toBe(false);
    }

    // A second authorization, then revocation (RFC 7009) of its refresh token, then introspection.
    const verifier2 = oauth.generateRandomCodeVerifier();
    const state2 = oauth.generateRandomState();
    const second = await approveWithWallet(
      h,
      wallet,
      authorizeUrl(h.issuer, {
        clientId: client.client_id,
        redirectUri,
        scope: 'read write',
        state: state2,
        codeChallenge: await oauth.calculatePKCECodeChallenge(verifier2),
      }),
    );
    const tokens2 = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        clientAuth,
        oauth.validateAuthResponse(as, client, second.location!, state2),
        redirectUri,
        verifier2,
        options,
      ),
    );
    expect(tokens2.scope).toBe('read write');
    const active = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, clientAuth, tokens2.access_token, options),
    );
    expect(active).toMatchObject({
      active: true,
      scope: 'read write',
      client_id: client.client_id,
      sub: wallet.address,
      token_type: 'Bearer',
      iss: h.issuer,
    });
    const writeOk = await oauth.protectedResourceRequest(
      tokens2.access_token,
      'POST',
      swapUrl,
      new Headers(),
      null,
      resourceOptions,
    );
    expect(writeOk.status).toBe(200);

    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, clientAuth, tokens2.refresh_token!, options),
    );
    for (const token of [tokens2.access_token, tokens2.refresh_token!]) {
      const info = await oauth.processIntrospectionResponse(
        as,
        client,
        await oauth.introspectionRequest(as, client, clientAuth, token, options),
      );
      expect(info).toEqual({ active: false });
    }
    const afterRevoke = await oauth
      .protectedResourceRequest(tokens2.access_token, 'GET', swapUrl, new Headers(), null, resourceOptions)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((afterRevoke as oauth.WWWAuthenticateChallengeError).status).toBe(401);
  });

  it('serves a public client (token_endpoint_auth_method none) with PKCE', async () => {
    const h = createHarness();
    const wallet = await createTestWallet();
    const options = { [oauth.customFetch]: h.fetch as typeof fetch, [oauth.allowInsecureRequests]: true };
    const redirectUri = 'http://127.0.0.1:53682/callback';
    const registration = await h.fetch(`${h.issuer}/oauth/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'CLI app',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
      }),
    });
    const registered = (await registration.json()) as Record<string, unknown>;
    expect(registered.client_secret).toBeUndefined();
    const client: oauth.Client = {
      client_id: registered.client_id as string,
      token_endpoint_auth_method: 'none',
    };
    const as = await oauth.processDiscoveryResponse(
      new URL(h.issuer),
      await oauth.discoveryRequest(new URL(h.issuer), { ...options, algorithm: 'oauth2' }),
    );
    const verifier = oauth.generateRandomCodeVerifier();
    const { location } = await approveWithWallet(
      h,
      wallet,
      authorizeUrl(h.issuer, {
        clientId: client.client_id,
        redirectUri,
        codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
      }),
    );
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        oauth.validateAuthResponse(as, client, location!, oauth.expectNoState),
        redirectUri,
        verifier,
        options,
      ),
    );
    expect(tokens.scope).toBe('read');
    const rotated = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, options),
    );
    expect(rotated.access_token).toBeDefined();
    // A public client cannot authenticate, so introspection is closed to it (RFC 7662 section 2.1).
    const introspection = await oauth.introspectionRequest(
      as,
      client,
      oauth.None(),
      rotated.access_token,
      options,
    );
    expect(introspection.status).toBe(401);
    // Revocation is open to it for its own tokens (RFC 7009 section 2.1).
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), rotated.refresh_token!, options),
    );
    const refused = await oauth
      .refreshTokenGrantRequest(as, client, oauth.None(), rotated.refresh_token!, options)
      .then((res) => oauth.processRefreshTokenResponse(as, client, res))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((refused as oauth.ResponseBodyError).error).toBe('invalid_grant');
  });
});
