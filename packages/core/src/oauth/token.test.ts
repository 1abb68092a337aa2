import { describe, expect, it } from 'vitest';
import type { OAuthFailure } from './errors.js';
import { hashSecret } from './secrets.js';
import { createTestbed, form, pkcePair, REDIRECT_URI } from './testbed.js';
import { exchangeAuthorizationCode, grantTokens, refreshTokens } from './token.js';
import { resolveAccessToken } from './tokens.js';

const described = (failure: OAuthFailure) =>
  'error' in failure ? `${failure.error}: ${failure.description}` : failure.code;

async function setup() {
  const t = createTestbed();
  const { client } = await t.register('confidential');
  const active = async (token: string) =>
    (await resolveAccessToken(t.store, token, t.clock.now()))._unsafeUnwrap() !== null;
  return { t, client, active };
}

describe('exchangeAuthorizationCode (RFC 6749 section 4.1.3 / 4.1.4, RFC 7636 section 4.6)', () => {
  it('4.1.4 / 5.1: answers a Bearer token pair with its lifetime and scope', async () => {
    const { t, client, active } = await setup();
    const { code, verifier, wallet } = await t.authorize(client, ['read', 'write']);
    const tokens = (
      await exchangeAuthorizationCode(t.deps, t.settings, client, {
        code,
        redirectUri: REDIRECT_URI,
        codeVerifier: verifier,
      })
    )._unsafeUnwrap();
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'read write' });
    expect(tokens.access_token).toMatch(/^taat_/);
    expect(tokens.refresh_token).toMatch(/^tart_/);
    const principal = (await resolveAccessToken(t.store, tokens.access_token, t.clock.now()))._unsafeUnwrap();
    expect(principal).toMatchObject({
      subject: wallet.address,
      clientId: client.id,
      scope: ['read', 'write'],
    });
    // Only hashes are stored.
    expect((await t.store.findToken(tokens.access_token))._unsafeUnwrap()).toBeNull();
    expect(await active(tokens.access_token)).toBe(true);
  });

  it('4.1.2 / RFC 9700 section 4.5.3: a replayed code fails and revokes every token the first use issued', async () => {
    const { t, client, active } = await setup();
    const { code, verifier } = await t.authorize(client);
    const grant = { code, redirectUri: REDIRECT_URI, codeVerifier: verifier };
    const first = (await exchangeAuthorizationCode(t.deps, t.settings, client, grant))._unsafeUnwrap();
    const replay = await exchangeAuthorizationCode(t.deps, t.settings, client, grant);
    expect(described(replay._unsafeUnwrapErr())).toBe(
      'invalid_grant: the authorization code was already used',
    );
    expect(await active(first.access_token)).toBe(false);
    const refresh = await refreshTokens(t.deps, t.settings, client, {
      refreshToken: first.refresh_token,
      scope: undefined,
    });
    expect(refresh.isErr()).toBe(true);
    expect(t.lines.some((l) => l.includes('authorization code replayed; grant revoked'))).toBe(true);
  });

  it('binds the code to its client, lifetime, redirect URI and PKCE challenge', async () => {
    const { t, client } = await setup();
    const { client: other } = await t.register('confidential');
    const attempt = async (
      mutate: (grant: { code: string; redirectUri: string; codeVerifier: string }) => object,
      by = client,
    ) => {
      const { code, verifier } = await t.authorize(client);
      const grant = { code, redirectUri: REDIRECT_URI, codeVerifier: verifier };
      const result = await exchangeAuthorizationCode(t.deps, t.settings, by, { ...grant, ...mutate(grant) });
      return described(result._unsafeUnwrapErr());
    };
    expect(await attempt(() => ({}), other)).toBe(
      'invalid_grant: the authorization code was issued to another client',
    );
    expect(await attempt(() => ({ redirectUri: `${REDIRECT_URI}/other` }))).toBe(
      'invalid_grant: redirect_uri does not match the authorization request',
    );
    expect(await attempt(() => ({ codeVerifier: pkcePair('b').verifier }))).toBe(
      'invalid_grant: code_verifier does not match the code_challenge',
    );
    expect(await attempt(() => ({ codeVerifier: 'short' }))).toBe(
      'invalid_grant: code_verifier does not match the code_challenge',
    );
    expect(await attempt(() => ({ code: 'taac_unknown' }))).toBe(
      'invalid_grant: the authorization code is invalid',
    );
  });

  it('refuses a code after its 60 s lifetime', async () => {
    const { t, client } = await setup();
    const { code, verifier } = await t.authorize(client);
    t.clock.advance(60_000);
    const late = await exchangeAuthorizationCode(t.deps, t.settings, client, {
      code,
      redirectUri: REDIRECT_URI,
      codeVerifier: verifier,
    });
    expect(described(late._unsafeUnwrapErr())).toBe('invalid_grant: the authorization code has expired');
  });

  it('requires code, redirect_uri and code_verifier before touching the store', async () => {
    const { t, client } = await setup();
    const missing = async (grant: Record<string, string>) =>
      described(
        (
          await grantTokens(t.deps, t.settings, client, form({ grant_type: 'authorization_code', ...grant }))
        )._unsafeUnwrapErr(),
      );
    expect(await missing({})).toBe('invalid_request: code is required');
    expect(await missing({ code: 'c' })).toBe('invalid_request: redirect_uri is required');
    expect(await missing({ code: 'c', redirect_uri: REDIRECT_URI })).toBe(
      'invalid_request: code_verifier is required (PKCE)',
    );
  });
});

describe('refreshTokens (RFC 6749 section 6, RFC 9700 section 4.14.2)', () => {
  it('rotates: the new pair works, the old refresh token is spent, the access token stays', async () => {
    const { t, client, active } = await setup();
    const first = await t.tokens(client);
    const second = (
      await refreshTokens(t.deps, t.settings, client, { refreshToken: first.refresh_token, scope: undefined })
    )._unsafeUnwrap();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await active(second.access_token)).toBe(true);
    expect(
      (await t.store.findToken(hashSecret(first.refresh_token)))._unsafeUnwrap()?.rotatedAt,
    ).toBeDefined();
    expect(t.lines.some((l) => l.includes('refresh token rotated'))).toBe(true);
  });

  it('detects reuse of a rotated refresh token and revokes the whole grant', async () => {
    const { t, client, active } = await setup();
    const first = await t.tokens(client);
    const second = (
      await refreshTokens(t.deps, t.settings, client, { refreshToken: first.refresh_token, scope: undefined })
    )._unsafeUnwrap();
    const reuse = await refreshTokens(t.deps, t.settings, client, {
      refreshToken: first.refresh_token,
      scope: undefined,
    });
    expect(described(reuse._unsafeUnwrapErr())).toBe('invalid_grant: the refresh token is invalid');
    expect(await active(second.access_token)).toBe(false);
    const afterRevoke = await refreshTokens(t.deps, t.settings, client, {
      refreshToken: second.refresh_token,
      scope: undefined,
    });
    expect(afterRevoke.isErr()).toBe(true);
    expect(t.lines.some((l) => l.includes('refresh token reused; grant revoked'))).toBe(true);
  });

  it('section 6: may narrow the access token scope, never widen it; the grant keeps its scope', async () => {
    const { t, client } = await setup();
    const both = await t.tokens(client, ['read', 'write']);
    const narrowed = (
      await refreshTokens(t.deps, t.settings, client, { refreshToken: both.refresh_token, scope: 'read' })
    )._unsafeUnwrap();
    expect(narrowed.scope).toBe('read');
    const back = (
      await refreshTokens(t.deps, t.settings, client, {
        refreshToken: narrowed.refresh_token,
        scope: undefined,
      })
    )._unsafeUnwrap();
    expect(back.scope).toBe('read write');
    const readOnly = await t.tokens(client, ['read']);
    const widened = await refreshTokens(t.deps, t.settings, client, {
      refreshToken: readOnly.refresh_token,
      scope: 'read write',
    });
    expect(described(widened._unsafeUnwrapErr())).toBe(
      'invalid_scope: the requested scope exceeds the scope originally granted',
    );
  });

  it("refuses another client's refresh token, an access token, an expired one, and none", async () => {
    const { t, client } = await setup();
    const { client: other } = await t.register('confidential');
    const tokens = await t.tokens(client);
    const invalid = 'invalid_grant: the refresh token is invalid';
    const refresh = async (by: typeof client, refreshToken: string | undefined) =>
      described(
        (await refreshTokens(t.deps, t.settings, by, { refreshToken, scope: undefined }))._unsafeUnwrapErr(),
      );
    expect(await refresh(other, tokens.refresh_token)).toBe(invalid);
    expect(await refresh(client, tokens.access_token)).toBe(invalid);
    expect(await refresh(client, undefined)).toBe('invalid_request: refresh_token is required');
    t.clock.advance(86_400_000);
    expect(await refresh(client, tokens.refresh_token)).toBe(invalid);
  });
});

describe('grantTokens (RFC 6749 section 5.2)', () => {
  it('dispatches on grant_type and refuses the others', async () => {
    const { t, client } = await setup();
    const tokens = await t.tokens(client);
    const refreshed = await grantTokens(
      t.deps,
      t.settings,
      client,
      form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }),
    );
    expect(refreshed.isOk()).toBe(true);
    const fail = async (values: Record<string, string>) =>
      described((await grantTokens(t.deps, t.settings, client, form(values)))._unsafeUnwrapErr());
    expect(await fail({})).toBe('invalid_request: grant_type is required');
    expect(await fail({ grant_type: 'password' })).toBe(
      'unsupported_grant_type: grant_type must be authorization_code or refresh_token',
    );
    expect(await fail({ grant_type: 'client_credentials' })).toMatch(/^unsupported_grant_type/);
  });
});
