import { describe, expect, it } from 'vitest';
import type { OAuthFailure } from './errors.js';
import { introspectToken } from './introspect.js';
import { revokeToken } from './revoke.js';
import { createTestbed, form, ISSUER } from './testbed.js';
import { refreshTokens } from './token.js';
import { resolveAccessToken } from './tokens.js';

const described = (failure: OAuthFailure) =>
  'error' in failure ? `${failure.error}: ${failure.description}` : failure.code;

async function setup() {
  const t = createTestbed();
  const { client } = await t.register('confidential');
  const { client: other } = await t.register('confidential');
  const active = async (token: string) =>
    (await resolveAccessToken(t.store, token, t.clock.now()))._unsafeUnwrap() !== null;
  return { t, client, other, active };
}

describe('revokeToken (RFC 7009)', () => {
  it('section 2.1: revoking a refresh token ends the access tokens of its grant', async () => {
    const { t, client, active } = await setup();
    const tokens = await t.tokens(client);
    expect((await revokeToken(t.deps, client, form({ token: tokens.refresh_token }))).isOk()).toBe(true);
    expect(await active(tokens.access_token)).toBe(false);
    const refreshed = await refreshTokens(t.deps, t.settings, client, {
      refreshToken: tokens.refresh_token,
      scope: undefined,
    });
    expect(refreshed.isErr()).toBe(true);
  });

  it('section 2.1: revoking an access token leaves the refresh token usable', async () => {
    const { t, client, active } = await setup();
    const tokens = await t.tokens(client);
    expect((await revokeToken(t.deps, client, form({ token: tokens.access_token }))).isOk()).toBe(true);
    expect(await active(tokens.access_token)).toBe(false);
    const refreshed = await refreshTokens(t.deps, t.settings, client, {
      refreshToken: tokens.refresh_token,
      scope: undefined,
    });
    expect(refreshed.isOk()).toBe(true);
  });

  it('section 2.2: an unknown or already revoked token is not an error', async () => {
    const { t, client } = await setup();
    expect((await revokeToken(t.deps, client, form({ token: 'taat_never-issued' }))).isOk()).toBe(true);
    const tokens = await t.tokens(client);
    await revokeToken(t.deps, client, form({ token: tokens.access_token }));
    expect((await revokeToken(t.deps, client, form({ token: tokens.access_token }))).isOk()).toBe(true);
  });

  it("section 2.1: refuses another client's token and leaves it active", async () => {
    const { t, client, other, active } = await setup();
    const tokens = await t.tokens(client);
    const refused = await revokeToken(t.deps, other, form({ token: tokens.access_token }));
    expect(described(refused._unsafeUnwrapErr())).toBe(
      'unauthorized_client: the token was not issued to this client',
    );
    expect(await active(tokens.access_token)).toBe(true);
  });

  it('section 2.1: the token parameter is required', async () => {
    const { t, client } = await setup();
    expect(described((await revokeToken(t.deps, client, form({})))._unsafeUnwrapErr())).toBe(
      'invalid_request: token is required',
    );
  });
});

describe('introspectToken (RFC 7662)', () => {
  it('section 2.2: describes an active access token', async () => {
    const { t, client } = await setup();
    const tokens = await t.tokens(client, ['read', 'write']);
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const state = (
      await introspectToken(t.deps, t.settings, client, form({ token: tokens.access_token }))
    )._unsafeUnwrap();
    expect(state).toEqual({
      active: true,
      scope: 'read write',
      client_id: client.id,
      sub: tokens.wallet.address,
      token_type: 'Bearer',
      exp: now + 900,
      iat: now,
      iss: ISSUER,
    });
    const refresh = (
      await introspectToken(t.deps, t.settings, client, form({ token: tokens.refresh_token }))
    )._unsafeUnwrap();
    expect(refresh).toMatchObject({ active: true, exp: now + 86_400 });
    expect(refresh).not.toHaveProperty('token_type');
  });

  it("section 2.2 / 4: unknown, expired, revoked and other clients' tokens are all just inactive", async () => {
    const { t, client, other } = await setup();
    const tokens = await t.tokens(client);
    const inactive = { active: false };
    const ask = async (by: typeof client, token: string) =>
      (await introspectToken(t.deps, t.settings, by, form({ token })))._unsafeUnwrap();
    expect(await ask(client, 'taat_unknown')).toEqual(inactive);
    expect(await ask(other, tokens.access_token)).toEqual(inactive);
    await revokeToken(t.deps, client, form({ token: tokens.access_token }));
    expect(await ask(client, tokens.access_token)).toEqual(inactive);
    t.clock.advance(86_400_000);
    expect(await ask(client, tokens.refresh_token)).toEqual(inactive);
  });

  it('section 2.1: requires a confidential client and a token', async () => {
    const { t, client } = await setup();
    const { client: publicClient } = await t.register('public');
    expect(
      described(
        (await introspectToken(t.deps, t.settings, publicClient, form({ token: 'x' })))._unsafeUnwrapErr(),
      ),
    ).toBe('invalid_client: introspection requires a confidential client');
    expect(described((await introspectToken(t.deps, t.settings, client, form({})))._unsafeUnwrapErr())).toBe(
      'invalid_request: token is required',
    );
  });
});
