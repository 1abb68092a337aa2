import { describe, expect, it } from 'vitest';
import { seedDemoClient } from '../../src/oauth/index.js';
import { basicAuth, createHarness, createTestWallet, obtainTokens } from '../fixtures/oauth-harness.js';

describe('demo client and metadata', () => {
  it('seeds a working demo client whose secret is new at every start', async () => {
    const h = createHarness();
    const first = await seedDemoClient({ store: h.store, clock: h.clock, issuer: `${h.issuer}/` });
    expect(first).toMatchObject({ clientId: 'demo-client', redirectUri: `${h.issuer}/oauth/demo/callback` });
    const second = await seedDemoClient({ store: h.store, clock: h.clock, issuer: h.issuer });
    expect(second.clientSecret).not.toBe(first.clientSecret);

    const tokens = await obtainTokens(h, await createTestWallet(), second, 'read write');
    expect(tokens.body.scope).toBe('read write');
    const stale = await h.fetch(`${h.issuer}/oauth/introspect`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basicAuth(first.clientId, first.clientSecret),
      },
      body: new URLSearchParams({ token: tokens.accessToken }).toString(),
    });
    expect(stale.status).toBe(401);

    const page = await h.fetch(`${h.issuer}/oauth/demo/callback?code=${tokens.code}&state=s`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('grant_type=authorization_code');
  });

  it('publishes RFC 8414 metadata whose endpoints all live under the issuer', async () => {
    const h = createHarness();
    const res = await h.fetch(`${h.issuer}/.well-known/oauth-authorization-server`);
    const meta = (await res.json()) as Record<string, unknown>;
    expect(meta).toMatchObject({
      issuer: h.issuer,
      authorization_endpoint: `${h.issuer}/oauth/authorize`,
      token_endpoint: `${h.issuer}/oauth/token`,
      revocation_endpoint: `${h.issuer}/oauth/revoke`,
      introspection_endpoint: `${h.issuer}/oauth/introspect`,
      registration_endpoint: `${h.issuer}/oauth/clients`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ['read', 'write'],
    });
  });
});
