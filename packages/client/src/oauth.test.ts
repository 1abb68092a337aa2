import { describe, expect, it } from 'vitest';
import { json, type Sent, scriptedFetch } from '../test/support/fetch.js';
import { TokenActionsError } from './errors.js';
import { createOAuthClient, refreshingAccessToken, type TokenSet } from './oauth.js';

const ISSUER = 'https://service.test';
const METADATA = {
  issuer: ISSUER,
  authorization_endpoint: `${ISSUER}/oauth/authorize`,
  token_endpoint: `${ISSUER}/oauth/token`,
  revocation_endpoint: `${ISSUER}/oauth/revoke`,
  response_types_supported: ['code'],
  grant_types_supported: ['authorization_code', 'refresh_token'],
  code_challenge_methods_supported: ['S256'],
  token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'],
};
const REDIRECT = 'https://app.test/callback';
const tokens = (access: string, refresh?: string) =>
  json(200, {
    access_token: access,
    token_type: 'Bearer',
    expires_in: 900,
    scope: 'read write',
    ...(refresh ? { refresh_token: refresh } : {}),
  });

/** oauth4webapi calls `fetch(url, init)`; the script records Requests. */
function oauthFetch(...answers: Parameters<typeof scriptedFetch>) {
  const script = scriptedFetch(json(200, METADATA), ...answers);
  return {
    sent: script.sent,
    fetch: (url: string, init: RequestInit) => script.fetch(new Request(url, init)),
  };
}

const form = (sent: Sent) => Object.fromEntries(new URLSearchParams(sent.body));

async function sha256Base64Url(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Buffer.from(digest).toString('base64url');
}

describe('createOAuthClient', () => {
  it('discovers the server at /.well-known/oauth-authorization-server (RFC 8414)', async () => {
    const { fetch, sent } = oauthFetch();
    const client = await createOAuthClient({ issuer: ISSUER, clientId: 'app', redirectUri: REDIRECT, fetch });
    expect(sent[0]!.url.href).toBe(`${ISSUER}/.well-known/oauth-authorization-server`);
    expect(client.metadata.token_endpoint).toBe(METADATA.token_endpoint);
  });

  it('builds an authorization URL with PKCE S256 and a fresh state (RFC 7636 4.2)', async () => {
    const { fetch } = oauthFetch();
    const client = await createOAuthClient({ issuer: ISSUER, clientId: 'app', redirectUri: REDIRECT, fetch });
    const first = await client.authorizationUrl({ scope: 'read write' });
    const second = await client.authorizationUrl({ scope: 'read' });
    const query = Object.fromEntries(first.url.searchParams);
    expect(`${first.url.origin}${first.url.pathname}`).toBe(METADATA.authorization_endpoint);
    expect(query).toEqual({
      response_type: 'code',
      client_id: 'app',
      redirect_uri: REDIRECT,
      scope: 'read write',
      state: first.state,
      code_challenge: await sha256Base64Url(first.codeVerifier),
      code_challenge_method: 'S256',
    });
    // RFC 7636 4.1: 43 to 128 characters of the unreserved set.
    expect(first.codeVerifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
    expect(second.state).not.toBe(first.state);
    expect(second.codeVerifier).not.toBe(first.codeVerifier);
  });

  it('exchanges the code with the verifier, authenticating a confidential client with Basic', async () => {
    const { fetch, sent } = oauthFetch(tokens('at-1', 'rt-1'));
    const client = await createOAuthClient({
      issuer: ISSUER,
      clientId: 'app',
      clientSecret: 's3cret',
      redirectUri: REDIRECT,
      fetch,
    });
    const request = await client.authorizationUrl({ scope: 'read write' });
    const issued = await client.exchangeCode(`${REDIRECT}?code=the-code&state=${request.state}`, request);
    expect(issued).toMatchObject({ accessToken: 'at-1', refreshToken: 'rt-1', scope: 'read write' });
    expect(issued.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 800_000);
    const exchange = sent[1]!;
    expect(exchange.url.href).toBe(METADATA.token_endpoint);
    expect(exchange.headers.get('authorization')).toBe(`Basic ${btoa('app:s3cret')}`);
    expect(form(exchange)).toMatchObject({
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: REDIRECT,
      code_verifier: request.codeVerifier,
    });
  });

  it('refuses a callback whose state is not the one sent (RFC 6749 10.12)', async () => {
    const { fetch, sent } = oauthFetch(tokens('at-1'));
    const client = await createOAuthClient({ issuer: ISSUER, clientId: 'app', redirectUri: REDIRECT, fetch });
    const request = await client.authorizationUrl({ scope: 'read' });
    await expect(client.exchangeCode('?code=c&state=forged', request)).rejects.toThrow(/state/);
    expect(sent).toHaveLength(1);
  });

  it('refreshes to the rotated refresh token, keeping the old one only when none is issued', async () => {
    const { fetch, sent } = oauthFetch(tokens('at-2', 'rt-2'), tokens('at-3'));
    const client = await createOAuthClient({ issuer: ISSUER, clientId: 'app', redirectUri: REDIRECT, fetch });
    const rotated = await client.refresh('rt-1');
    const kept = await client.refresh('rt-2');
    expect(rotated).toMatchObject({ accessToken: 'at-2', refreshToken: 'rt-2' });
    expect(kept).toMatchObject({ accessToken: 'at-3', refreshToken: 'rt-2' });
    // A public client identifies itself in the form instead (token_endpoint_auth_method none).
    expect(form(sent[1]!)).toEqual({ grant_type: 'refresh_token', refresh_token: 'rt-1', client_id: 'app' });
  });

  it("throws the server's OAuth error as a TokenActionsError (RFC 6749 5.2)", async () => {
    const { fetch } = oauthFetch(
      json(400, { error: 'invalid_grant', error_description: 'the refresh token was used before' }),
    );
    const client = await createOAuthClient({ issuer: ISSUER, clientId: 'app', redirectUri: REDIRECT, fetch });
    const error = await client.refresh('rt-stolen').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenActionsError);
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_grant',
      message: 'the refresh token was used before',
    });
  });

  it('revokes a token with its type hint (RFC 7009 2.1)', async () => {
    const { fetch, sent } = oauthFetch(new Response(null, { status: 200 }));
    const client = await createOAuthClient({ issuer: ISSUER, clientId: 'app', redirectUri: REDIRECT, fetch });
    await client.revoke('rt-9', 'refresh_token');
    expect(sent[1]!.url.href).toBe(METADATA.revocation_endpoint);
    expect(form(sent[1]!)).toMatchObject({ token: 'rt-9', token_type_hint: 'refresh_token' });
  });
});

describe('refreshingAccessToken', () => {
  const expired: TokenSet = {
    accessToken: 'old',
    refreshToken: 'rt-1',
    expiresAt: new Date(Date.now() - 1),
    scope: 'read',
  };

  it('refreshes once for concurrent callers, so a rotated refresh token is never sent twice', async () => {
    let refreshes = 0;
    const saved: TokenSet[] = [];
    const next: TokenSet = {
      accessToken: 'new',
      refreshToken: 'rt-2',
      expiresAt: new Date(Date.now() + 900_000),
      scope: 'read',
    };
    const token = refreshingAccessToken(
      {
        refresh: async (refreshToken) => {
          refreshes++;
          expect(refreshToken).toBe('rt-1');
          return next;
        },
      },
      expired,
      (tokens) => {
        saved.push(tokens);
      },
    );
    expect(await Promise.all([token(), token(), token()])).toEqual(['new', 'new', 'new']);
    expect(await token()).toBe('new');
    expect(refreshes).toBe(1);
    expect(saved).toEqual([next]);
  });

  it('hands out a token that is not near its expiry as it is', async () => {
    const fresh = { ...expired, accessToken: 'fresh', expiresAt: new Date(Date.now() + 600_000) };
    const token = refreshingAccessToken(
      {
        refresh: () => {
          throw new Error('not expected');
        },
      },
      fresh,
    );
    expect(await token()).toBe('fresh');
  });
});
