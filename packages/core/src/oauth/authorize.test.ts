import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { domainError } from '../errors.js';
import { type AuthorizationFailure, validateAuthorizationRequest } from './authorize.js';
import { createTestbed, ISSUER, pkcePair, REDIRECT_URI } from './testbed.js';

async function setup() {
  const t = createTestbed();
  const { client } = await t.register('confidential', ['read']);
  const valid = {
    response_type: 'code',
    client_id: client.id,
    redirect_uri: REDIRECT_URI,
    scope: 'read',
    state: 'xyz',
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
  };
  const validate = async (overrides: Record<string, string | null> = {}, extra = '') => {
    const params = new URLSearchParams(valid);
    for (const [key, value] of Object.entries(overrides)) {
      if (value === null) params.delete(key);
      else params.set(key, value);
    }
    return validateAuthorizationRequest(t.deps, t.settings, new URLSearchParams(`${params}${extra}`));
  };
  return { t, client, validate };
}

function redirectedError(failure: AuthorizationFailure) {
  if (!('kind' in failure) || failure.kind !== 'redirect')
    throw new Error(`not a redirect: ${JSON.stringify(failure)}`);
  const url = new URL(failure.location);
  return {
    base: `${url.origin}${url.pathname}`,
    error: url.searchParams.get('error'),
    description: url.searchParams.get('error_description'),
    state: url.searchParams.get('state'),
    iss: url.searchParams.get('iss'),
  };
}

describe('validateAuthorizationRequest (RFC 6749 section 4.1.1)', () => {
  it('accepts a complete request: client, exact redirect URI, scope, state and S256 challenge', async () => {
    const { client, validate } = await setup();
    const request = (await validate())._unsafeUnwrap();
    expect(request).toMatchObject({ redirectUri: REDIRECT_URI, scope: ['read'], state: 'xyz' });
    expect(request.client.id).toBe(client.id);
  });

  it('section 3.3: an omitted scope defaults to read', async () => {
    const { validate } = await setup();
    expect((await validate({ scope: null }))._unsafeUnwrap().scope).toEqual(['read']);
  });

  it('4.1.2.1: an unknown client or a repeated parameter is shown, never redirected', async () => {
    const { validate } = await setup();
    expect((await validate({ client_id: 'nobody' }))._unsafeUnwrapErr()).toEqual({
      kind: 'page',
      title: 'Unknown application',
      detail: 'client_id is missing or not registered',
    });
    expect((await validate({}, '&state=again'))._unsafeUnwrapErr()).toMatchObject({
      kind: 'page',
      detail: 'the parameter state was sent more than once',
    });
  });

  it('3.1.2.3 / RFC 9700 section 2.1: a redirect URI that is not an exact match is shown, never redirected', async () => {
    const { validate } = await setup();
    for (const uri of [`${REDIRECT_URI}/`, `${REDIRECT_URI}?x=1`, 'https://evil.example/cb', null]) {
      expect((await validate({ redirect_uri: uri }))._unsafeUnwrapErr()).toMatchObject({
        kind: 'page',
        title: 'Invalid redirect URI',
      });
    }
  });

  it('4.1.2.1: once the redirect URI is trusted, errors go back to it with state and RFC 9207 iss', async () => {
    const { validate } = await setup();
    expect(redirectedError((await validate({ response_type: 'token' }))._unsafeUnwrapErr())).toEqual({
      base: REDIRECT_URI,
      error: 'unsupported_response_type',
      description: 'only response_type=code is supported',
      state: 'xyz',
      iss: ISSUER,
    });
  });

  it('RFC 7636 section 4.3 / RFC 9700 section 2.1.1: PKCE with S256 is required', async () => {
    const { validate } = await setup();
    const cases: [Record<string, string | null>, string][] = [
      [{ code_challenge: null }, 'code_challenge is required (PKCE S256)'],
      [{ code_challenge_method: 'plain' }, 'code_challenge_method must be S256'],
      [{ code_challenge_method: null }, 'code_challenge_method must be S256'],
      [{ code_challenge: 'too-short' }, 'code_challenge is not a S256 challenge'],
    ];
    for (const [overrides, description] of cases) {
      expect(redirectedError((await validate(overrides))._unsafeUnwrapErr())).toMatchObject({
        error: 'invalid_request',
        description,
      });
    }
  });

  it('section 3.3: an unknown scope, or one the client may not have, is invalid_scope', async () => {
    const { validate } = await setup();
    expect(redirectedError((await validate({ scope: 'admin' }))._unsafeUnwrapErr())).toMatchObject({
      error: 'invalid_scope',
      description: 'scope must be made of: read write',
    });
    expect(redirectedError((await validate({ scope: 'read write' }))._unsafeUnwrapErr())).toMatchObject({
      error: 'invalid_scope',
      description: 'the application may not request this scope',
    });
  });

  it('passes a store failure through untouched', async () => {
    const { t } = await setup();
    const down = domainError('STORE_UNAVAILABLE', 'down');
    const store = { ...t.store, clients: { ...t.store.clients, get: () => errAsync(down) } };
    const params = new URLSearchParams({ client_id: 'any' });
    expect((await validateAuthorizationRequest({ store }, t.settings, params))._unsafeUnwrapErr()).toBe(down);
  });
});
