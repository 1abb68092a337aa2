import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { domainError } from '../errors.js';
import { authenticateClient } from './client-auth.js';
import type { OAuthFailure } from './errors.js';
import { authorizationServerMetadata } from './metadata.js';
import { registerClientMetadata } from './registration.js';
import { hashSecret } from './secrets.js';
import { createTestbed, form, ISSUER } from './testbed.js';

const ADMIN = 'admin-token-for-unit-tests';
const described = (failure: OAuthFailure) =>
  'error' in failure ? `${failure.error}: ${failure.description}` : failure.code;

function setup() {
  const t = createTestbed();
  const register = (body: unknown, authorization: string | null = `Bearer ${ADMIN}`) =>
    registerClientMetadata(t.deps, hashSecret(ADMIN), {
      ...(authorization ? { authorization } : {}),
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return { t, register };
}

describe('registerClientMetadata (RFC 7591)', () => {
  it('section 3.2.1: registers a confidential client whose secret is shown once and works', async () => {
    const { t, register } = setup();
    const registered = (
      await register({ client_name: 'Shop', redirect_uris: ['https://shop.example/cb'], scope: 'read' })
    )._unsafeUnwrap();
    expect(registered).toMatchObject({
      client_name: 'Shop',
      redirect_uris: ['https://shop.example/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: 'read',
      client_secret_expires_at: 0,
      client_id_issued_at: Math.floor(t.clock.now().getTime() / 1000),
    });
    const stored = (await t.store.clients.get(registered.client_id))._unsafeUnwrap();
    expect(stored?.secretHash).toBe(hashSecret(registered.client_secret!));
    const auth = await authenticateClient(t.deps, {
      form: form({ client_id: registered.client_id, client_secret: registered.client_secret! }),
    });
    expect(auth.isOk()).toBe(true);
  });

  it('registers a public client (`none`) without a secret', async () => {
    const { register } = setup();
    const registered = (
      await register({
        client_name: 'CLI',
        redirect_uris: ['http://127.0.0.1:8080/cb'],
        token_endpoint_auth_method: 'none',
        webhook_url: 'https://cli.example/hook',
      })
    )._unsafeUnwrap();
    expect(registered).not.toHaveProperty('client_secret');
    expect(registered).toMatchObject({
      token_endpoint_auth_method: 'none',
      webhook_url: 'https://cli.example/hook',
    });
  });

  it('section 3.2.2: a webhook_url its outbound policy refuses is invalid_client_metadata, and nothing is stored', async () => {
    const t = createTestbed();
    const checked: string[] = [];
    let stored = 0;
    const clients = t.deps.store.clients;
    const deps = {
      ...t.deps,
      store: {
        ...t.deps.store,
        clients: {
          ...clients,
          upsert: (c: Parameters<typeof clients.upsert>[0]) => {
            stored++;
            return clients.upsert(c);
          },
        },
      },
      webhookUrls: {
        check: (url: string) => {
          checked.push(url);
          return errAsync(
            domainError('INVALID_INPUT', 'webhook URL host 10.0.0.1 resolves to a private address'),
          );
        },
      },
    };
    const failure = (
      await registerClientMetadata(deps, hashSecret(ADMIN), {
        authorization: `Bearer ${ADMIN}`,
        body: JSON.stringify({
          client_name: 'Probe',
          redirect_uris: ['https://probe.example/cb'],
          webhook_url: 'https://10.0.0.1/hook',
        }),
      })
    )._unsafeUnwrapErr();
    expect(described(failure)).toBe(
      'invalid_client_metadata: webhook URL host 10.0.0.1 resolves to a private address',
    );
    expect(checked).toEqual(['https://10.0.0.1/hook']);
    expect(stored).toBe(0);
  });

  it('section 3: requires the admin token as a bearer token (RFC 6750), with a challenge', async () => {
    const { register } = setup();
    const body = { client_name: 'x', redirect_uris: ['https://x.example/cb'] };
    for (const authorization of [null, 'Bearer wrong', `Basic ${ADMIN}`]) {
      expect((await register(body, authorization))._unsafeUnwrapErr()).toEqual({
        error: 'invalid_token',
        description: 'an admin bearer token is required',
        challenge: 'bearer',
      });
    }
  });

  it('section 3.2.2: invalid_redirect_uri and invalid_client_metadata', async () => {
    const { register } = setup();
    const fail = async (body: unknown) => described((await register(body))._unsafeUnwrapErr());
    const uris = ['https://x.example/cb'];
    expect(await fail('not json')).toBe('invalid_client_metadata: the body must be a JSON object');
    expect(await fail([1])).toBe('invalid_client_metadata: the body must be a JSON object');
    expect(
      await fail({ client_name: 'x', redirect_uris: uris, token_endpoint_auth_method: 'private_key_jwt' }),
    ).toBe('invalid_client_metadata: unsupported token_endpoint_auth_method');
    expect(await fail({ client_name: 'x', redirect_uris: 'https://x.example/cb' })).toBe(
      'invalid_redirect_uri: redirect_uris must be an array of URLs',
    );
    expect(await fail({ redirect_uris: uris })).toBe('invalid_client_metadata: client_name is required');
    expect(await fail({ client_name: 'x', redirect_uris: uris, scope: 'admin' })).toBe(
      'invalid_client_metadata: scope must be made of: read write',
    );
    expect(await fail({ client_name: 'x', redirect_uris: uris, webhook_url: 5 })).toBe(
      'invalid_client_metadata: webhook_url must be a URL',
    );
    // RFC 9700 section 2.1: no fragments, https or loopback http only.
    expect(await fail({ client_name: 'x', redirect_uris: ['https://x.example/cb#f'] })).toBe(
      'invalid_redirect_uri: a redirect URI must not contain a fragment',
    );
    expect(await fail({ client_name: 'x', redirect_uris: ['http://x.example/cb'] })).toBe(
      'invalid_redirect_uri: a redirect URI must use https, or http on a loopback host',
    );
    expect(await fail({ client_name: '', redirect_uris: uris })).toMatch(
      /^invalid_client_metadata: client name/,
    );
  });
});

describe('authorizationServerMetadata (RFC 8414 section 2)', () => {
  it('lists the endpoints and what they support; registration only when enabled', () => {
    const { t } = setup();
    const metadata = authorizationServerMetadata(t.settings, { registration: true });
    expect(metadata).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth/authorize`,
      token_endpoint: `${ISSUER}/oauth/token`,
      revocation_endpoint: `${ISSUER}/oauth/revoke`,
      introspection_endpoint: `${ISSUER}/oauth/introspect`,
      registration_endpoint: `${ISSUER}/oauth/clients`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(authorizationServerMetadata(t.settings, { registration: false })).not.toHaveProperty(
      'registration_endpoint',
    );
  });
});
