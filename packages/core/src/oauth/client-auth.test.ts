import { encodeBase64 } from '@oslojs/encoding';
import { describe, expect, it } from 'vitest';
import { authenticateClient } from './client-auth.js';
import { createTestbed, form } from './testbed.js';

const basic = (id: string, secret: string) =>
  `Basic ${encodeBase64(new TextEncoder().encode(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`))}`;

describe('authenticateClient (RFC 6749 section 2.3)', () => {
  it('2.3.1: accepts client_secret_basic, with id and secret form-urlencoded before base64', async () => {
    const t = createTestbed();
    const { client, clientSecret } = await t.register('confidential');
    const authenticated = await authenticateClient(t.deps, {
      authorization: basic(client.id, clientSecret!),
      form: form({ grant_type: 'refresh_token' }),
    });
    expect(authenticated._unsafeUnwrap().id).toBe(client.id);
  });

  it('2.3.1: accepts client_secret_post', async () => {
    const t = createTestbed();
    const { client, clientSecret } = await t.register('confidential');
    const authenticated = await authenticateClient(t.deps, {
      form: form({ client_id: client.id, client_secret: clientSecret! }),
    });
    expect(authenticated.isOk()).toBe(true);
  });

  it('2.1 / RFC 7591 `none`: a public client presents its client_id alone', async () => {
    const t = createTestbed();
    const { client } = await t.register('public');
    expect((await authenticateClient(t.deps, { form: form({ client_id: client.id }) })).isOk()).toBe(true);
    const withSecret = await authenticateClient(t.deps, {
      form: form({ client_id: client.id, client_secret: 'anything' }),
    });
    expect(withSecret._unsafeUnwrapErr()).toMatchObject({
      error: 'invalid_client',
      description: 'a public client authenticates with client_id only',
    });
  });

  it('refuses a confidential client without its secret, or with a wrong one', async () => {
    const t = createTestbed();
    const { client, clientSecret } = await t.register('confidential');
    const none = await authenticateClient(t.deps, { form: form({ client_id: client.id }) });
    expect(none._unsafeUnwrapErr()).toEqual({
      error: 'invalid_client',
      description: 'client authentication failed',
    });
    const wrong = await authenticateClient(t.deps, {
      authorization: basic(client.id, `${clientSecret}x`),
      form: form({}),
    });
    // Section 5.2: the client tried the Authorization header, so the 401 challenges it.
    expect(wrong._unsafeUnwrapErr()).toEqual({
      error: 'invalid_client',
      description: 'client authentication failed',
      challenge: 'basic',
    });
  });

  it('2.3: refuses more than one authentication method in a request', async () => {
    const t = createTestbed();
    const { client, clientSecret } = await t.register('confidential');
    const both = await authenticateClient(t.deps, {
      authorization: basic(client.id, clientSecret!),
      form: form({ client_secret: clientSecret! }),
    });
    expect(both._unsafeUnwrapErr()).toEqual({
      error: 'invalid_request',
      description: 'use one client authentication method',
    });
  });

  it('refuses a body client_id that contradicts the Basic credentials', async () => {
    const t = createTestbed();
    const { client, clientSecret } = await t.register('confidential');
    const other = await authenticateClient(t.deps, {
      authorization: basic(client.id, clientSecret!),
      form: form({ client_id: 'someone-else' }),
    });
    expect(other._unsafeUnwrapErr()).toMatchObject({
      description: 'client_id does not match the credentials',
    });
  });

  it('answers malformed, missing and unknown credentials with invalid_client', async () => {
    const t = createTestbed();
    const describe = async (request: Parameters<typeof authenticateClient>[1]) => {
      const failure = (await authenticateClient(t.deps, request))._unsafeUnwrapErr();
      return 'error' in failure ? `${failure.error}: ${failure.description}` : failure.code;
    };
    expect(await describe({ authorization: 'Basic !!!', form: form({}) })).toBe(
      'invalid_client: malformed Basic credentials',
    );
    expect(await describe({ authorization: `Basic ${btoa('no-colon')}`, form: form({}) })).toBe(
      'invalid_client: malformed Basic credentials',
    );
    expect(await describe({ authorization: `Basic ${btoa('%zz:secret')}`, form: form({}) })).toBe(
      'invalid_client: malformed Basic credentials',
    );
    expect(await describe({ form: form({}) })).toBe('invalid_client: client authentication is required');
    expect(await describe({ form: form({ client_id: 'nobody' }) })).toBe(
      'invalid_client: client authentication failed',
    );
  });
});
