/**
 * The attacks RFC 6749, RFC 7636, RFC 9700 and RFC 6750 name, each asserting the
 * behaviour the RFC asks for.
 */
import { describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/oauth/secrets.js';
import {
  ADMIN_TOKEN,
  approveWithWallet,
  authorizeUrl,
  basicAuth,
  callSwap,
  createHarness,
  createTestWallet,
  type Harness,
  obtainTokens,
  registerTestClient,
  tokenRequest,
} from '../fixtures/oauth-harness.js';

async function pkcePair() {
  const verifier = `verifier-${crypto.randomUUID()}-${crypto.randomUUID()}`.slice(0, 64);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: Buffer.from(digest).toString('base64url') };
}

async function introspect(h: Harness, client: { clientId: string; clientSecret?: string }, token: string) {
  const res = await h.fetch(`${h.issuer}/oauth/introspect`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basicAuth(client.clientId, client.clientSecret!),
    },
    body: new URLSearchParams({ token }).toString(),
  });
  return (await res.json()) as Record<string, unknown>;
}

async function codeFor(h: Harness, client: { clientId: string; redirectUri: string }, scope = 'read') {
  const wallet = await createTestWallet();
  const pkce = await pkcePair();
  const { location } = await approveWithWallet(
    h,
    wallet,
    authorizeUrl(h.issuer, {
      clientId: client.clientId,
      redirectUri: client.redirectUri,
      scope,
      codeChallenge: pkce.challenge,
    }),
  );
  return { code: location!.searchParams.get('code')!, ...pkce, wallet };
}

describe('authorization code replay (RFC 6749 4.1.2, RFC 9700 4.5)', () => {
  it('refuses a second exchange and revokes the tokens the first one issued', async () => {
    const h = createHarness();
    const client = await registerTestClient(h);
    const { code, verifier } = await codeFor(h, client);
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
    };
    const auth = basicAuth(client.clientId, client.clientSecret!);
    const first = await tokenRequest(h, form, auth);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect((await callSwap(h, 'GET', first.body.access_token as string)).status).toBe(200);

    const replay = await tokenRequest(h, form, auth);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect(replay.body.access_token).toBeUndefined();
    expect((await callSwap(h, 'GET', first.body.access_token as string)).status).toBe(401);
    expect(await introspect(h, client, first.body.refresh_token as string)).toEqual({ active: false });
  });

  it('lets exactly one of several concurrent exchanges of one code succeed', async () => {
    const h = createHarness();
    const client = await registerTestClient(h);
    const { code, verifier } = await codeFor(h, client);
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
    };
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        tokenRequest(h, form, basicAuth(client.clientId, client.clientSecret!)),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.body.error === 'invalid_grant')).toHaveLength(4);
  });

  it('refuses a code past its 60 s lifetime', async () => {
    const h = createHarness();
    const client = await registerTestClient(h);
    const { code, verifier } = await codeFor(h, client);
    h.clock.advance(60_001);
    const res = await tokenRequest(
      h,
      { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: verifier },
      basicAuth(client.clientId, client.clientSecret!),
    );
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });
});

describe('PKCE (RFC 7636, RFC 9700 2.1.1)', () => {
  it('rejects an authorization request without a S256 code_challenge, by redirecting an error', async () => {
    const h = createHarness();
    const client = await registerTestClient(h);
    const url = authorizeUrl(h.issuer, {
      clientId: client.clientId,
      redirectUri: client.redirectUri,
      codeChallenge: 'x',
      state: 's1',
    });
    url.searchParams.delete('code_challenge');
    const missing = await h.fetch(url.toString());
    expect(missing.status).toBe(302);
    const location = new URL(missing.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('s1');
    expect(location.searchParams.get('iss')).toBe(h.issuer);

    const { challenge } = await pkcePair();
    const plain = authorizeUrl(h.issuer, {
      clientId: client.clientId,
      redirectUri: client.redirectUri,
      codeChallenge: challenge,
    });
    plain.searchParams.set('code_challenge_method', 'plain');
    const plainRes = await h.fetch(plain.toString());
    expect(new URL(plainRes.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('rejects a token request without code_verifier, or with a wrong one', async () => {
    const h = createHarness();
    const client = await registerTestClient(h);
    const auth = basicAuth(client.clientId, client.clientSecret!);
    const { code, verifier } = await codeFor(h, client);
    const noVerifier = await tokenRequest(
      h,
      { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri },
      auth,
    );
    expect(noVerifier).toMatchObject({ status: 400, body: { error: 'invalid_request' } });

    const { code: code2 } = await codeFor(h, client);
    const wrong = await tokenRequest(
      h,
      {
        grant_type: 'authorization_code',
        code: code2,
        redirect_uri: client.redirectUri,
        code_verifier: `${verifier}x`,
      },
      auth,
    );
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The failed attempt used the code up: not even the right verifier redeems it now.
    const after = await tokenRequest(
      h,
      {
        grant_type: 'authorization_code',
        code: code2,
        redirect_uri: client.redirectUri,
        code_verifier: verifier,
      },
      auth,
    );
    expect(after).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });
});

describe('redirect URI matching (RFC 9700 2.1, RFC 6749 4.1.2.1)', () => {
  it('shows an error instead of redirecting for any URI that is not an exact registered match', async () => {
    const h = createHarness();
    const client = await registerTestClient(h, { redirectUris: ['https://client.example/callback'] });
    const { challenge } = await pkcePair();
    for (const redirectUri of [
      'https://attacker.example/callback',
      'https://client.example/callback/',
      'https://client.example/callback?next=https://attacker.example',
      'https://client.example/Callback',
      'https://client.example.attacker.example/callback',
      'http://client.example/callback',
    ]) {
      const res = await h.fetch(
        authorizeUrl(h.issuer, {
          clientId: client.clientId,
          redirectUri,
          codeChallenge: challenge,
        }).toString(),
      );
      expect(res.status, redirectUri).toBe(400);
      expect(res.headers.get('location'), redirectUri).toBeNull();
      expect(await res.text()).toContain('Invalid redirect URI');
    }
    const unknownClient = await h.fetch(
      authorizeUrl(h.issuer, {
        clientId: 'nobody',
        redirectUri: 'https://attacker.example/cb',
        codeChallenge: challenge,
      }).toString(),
    );
    expect(unknownClient.status).toBe(400);
    expect(unknownClient.headers.get('location')).toBeNull();
  });

  it('refuses a code exchanged with a different redirect_uri than it was issued for', async () => {
    const h = createHarness();
    const client = await registerTestClient(h, {
      redirectUris: ['https://client.example/callback', 'https://client.example/other'],
    });
    const { code, verifier } = await codeFor(h, client);
    const res = await tokenRequest(
      h,
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'https://client.example/other',
        code_verifier: verifier,
      },
      basicAuth(client.clientId, client.clientSecret!),
    );
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('rejects registrations with fragments, plain http off loopback, or no URL at all', async () => {
    const h = createHarness();
    for (const uri of [
      'https://client.example/cb#frag',
      'http://client.example/cb',
      'not a url',
      'javascript:alert(1)',
    ]) {
      const res = await h.fetch(`${h.issuer}/oauth/clients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'x', redirect_uris: [uri] }),
      });
      expect(res.status, uri).toBe(400);
      expect(((await res.json()) as { error: string }).error, uri).toBe('invalid_redirect_uri');
    }
  });
});

describe('scope (RFC 6749 3.3 and 6)', () => {
  it('refuses to widen the scope on refresh, and allows narrowing it', async () => {
    const h = createHarness();
    const client = await registerTestClient(h);
    const wallet = await createTestWallet();
    const auth = basicAuth(client.clientId, client.clientSecret!);
    const readOnly = await obtainTokens(h, wallet, client, 'read');
    const escalate = await tokenRequest(
      h,
      { grant_type: 'refresh_token', refresh_token: readOnly.refreshToken, scope: 'read write' },
      auth,
    );
    expect(escalate).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    expect((await callSwap(h, 'POST', readOnly.accessToken)).status).toBe(403);

    const full = await obtainTokens(h, wallet, client, 'read write');
    const narrowed = await tokenRequest(
      h,
      { grant_type: 'refresh_token', refresh_token: full.refreshToken, scope: 'read' },
      auth,
    );
    expect(narrowed.body.scope).toBe('read');
    expect((await callSwap(h, 'POST', narrowed.body.access_token as string)).status).toBe(403);
    // The refresh token keeps the original grant's scope (RFC 6749 section 6).
    const widenedBack = await tokenRequest(
      h,
      { grant_type: 'refresh_token', refresh_token: narrowed.body.refresh_token as string },
      auth,
    );
    expect(widenedBack.body.scope).toBe('read write');
  });

  it('refuses scopes the client was not registered for, and unknown scopes', async () => {
    const h = createHarness();
    const client = await registerTestClient(h, { scopes: ['read'] });
    const { challenge } = await pkcePair();
    for (const scope of ['write', 'read admin']) {
      const res = await h.fetch(
        authorizeUrl(h.issuer, {
          clientId: client.clientId,
          redirectUri: client.redirectUri,
          scope,
          codeChallenge: challenge,
        }).toString(),
      );
      expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
    }
  });
});

describe('expiry', () => {
  it('answers 401 invalid_token for an expired access token and reports it inactive', async () => {
    const h = createHarness();
    const client = await registerTestClient(h);
    const tokens = await obtainTokens(h, await createTestWallet(), client);
    h.clock.advance(h.accessTokenTtlSec * 1000 + 1);
    const res = await callSwap(h, 'GET', tokens.accessToken);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'INVALID_TOKEN', rateLimit: { limit: 20 } });
    expect(res.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="token-actions", error="invalid_token"/,
    );
    expect(await introspect(h, client, tokens.accessToken)).toEqual({ active: false });
  });

  it('refuses an expired refresh token', async () => {
    const h = createHarness();
    const client = await registerTestClient(h);
    const tokens = await obtainTokens(h, await createTestWallet(), client);
    h.clock.advance(h.refreshTokenTtlSec * 1000 + 1);
    const res = await tokenRequest(
      h,
      { grant_type: 'refresh_token', refresh_token: tokens.refreshToken },
      basicAuth(client.clientId, client.clientSecret!),
    );
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });
});

describe('tokens of another client', () => {
  it('cannot be refreshed, introspected, revoked or exchanged by a different client', async () => {
    const h = createHarness();
    const a = await registerTestClient(h, { name: 'A' });
    const b = await registerTestClient(h, { name: 'B', redirectUris: [a.redirectUri] });
    const bAuth = basicAuth(b.clientId, b.clientSecret!);
    const tokens = await obtainTokens(h, await createTestWallet(), a, 'read write');

    const refresh = await tokenRequest(
      h,
      { grant_type: 'refresh_token', refresh_token: tokens.refreshToken },
      bAuth,
    );
    expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await introspect(h, b, tokens.accessToken)).toEqual({ active: false });
    const revoke = await h.fetch(`${h.issuer}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: bAuth },
      body: new URLSearchParams({ token: tokens.refreshToken }).toString(),
    });
    expect(revoke.status).toBe(400);
    expect((await revoke.json()) as object).toMatchObject({ error: 'unauthorized_client' });
    expect(await introspect(h, a, tokens.accessToken)).toMatchObject({ active: true });
    expect(await introspect(h, a, tokens.refreshToken)).toMatchObject({ active: true });

    const { code, verifier } = await codeFor(h, a);
    const stolen = await tokenRequest(
      h,
      { grant_type: 'authorization_code', code, redirect_uri: a.redirectUri, code_verifier: verifier },
      bAuth,
    );
    expect(stolen).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('authenticates clients: wrong secret, public-style auth for a confidential client, two methods at once', async () => {
    const h = createHarness();
    const client = await registerTestClient(h);
    const { code, verifier } = await codeFor(h, client);
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
    };
    const wrong = await tokenRequest(h, form, basicAuth(client.clientId, 'tacs_wrong'));
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    const none = await tokenRequest(h, { ...form, client_id: client.clientId });
    expect(none).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const both = await tokenRequest(
      h,
      { ...form, client_secret: client.clientSecret! },
      basicAuth(client.clientId, client.clientSecret!),
    );
    expect(both).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    // client_secret_post works, and the code was not burnt by the failed authentications.
    const post = await tokenRequest(h, {
      ...form,
      client_id: client.clientId,
      client_secret: client.clientSecret!,
    });
    expect(post.status).toBe(200);
  });
});

describe('wallet sign-in (SIWS)', () => {
  it('refuses a forged signature, a reused nonce, and a signature over a different scope', async () => {
    const h = createHarness();
    const client = await registerTestClient(h);
    const wallet = await createTestWallet();
    const other = await createTestWallet();
    const { challenge } = await pkcePair();
    const url = authorizeUrl(h.issuer, {
      clientId: client.clientId,
      redirectUri: client.redirectUri,
      codeChallenge: challenge,
    });

    const forged = await approveWithWallet(h, other, url, (form) => form.set('address', wallet.address));
    expect(forged.response.status).toBe(400);
    expect(forged.location).toBeNull();

    let usedForm: URLSearchParams | undefined;
    const ok = await approveWithWallet(h, wallet, url, (form) => {
      usedForm = new URLSearchParams(form);
    });
    expect(ok.location?.searchParams.get('code')).toBeTruthy();
    const replayed = await h.fetch(`${h.issuer}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: usedForm!.toString(),
    });
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain('already used');

    // Signed for `read`, submitted for `read write`: the rebuilt message differs, the signature fails.
    const escalated = await approveWithWallet(h, wallet, url, (form) => form.set('scope', 'read write'));
    expect(escalated.response.status).toBe(400);
    expect(escalated.location).toBeNull();
  });

  it('refuses a sign-in message signed after it expired', async () => {
    const h = createHarness();
    const client = await registerTestClient(h);
    const { challenge } = await pkcePair();
    const url = authorizeUrl(h.issuer, {
      clientId: client.clientId,
      redirectUri: client.redirectUri,
      codeChallenge: challenge,
    });
    const late = await approveWithWallet(h, await createTestWallet(), url, () => h.clock.advance(301_000));
    expect(late.response.status).toBe(400);
    expect(await late.response.text()).toContain('expired');
  });

  it('redirects access_denied when the user denies', async () => {
    const h = createHarness();
    const client = await registerTestClient(h);
    const { challenge } = await pkcePair();
    const url = authorizeUrl(h.issuer, {
      clientId: client.clientId,
      redirectUri: client.redirectUri,
      codeChallenge: challenge,
      state: 'st',
    });
    const form = new URLSearchParams(url.searchParams);
    form.set('decision', 'deny');
    const res = await h.fetch(`${h.issuer}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      error: 'access_denied',
      state: 'st',
      iss: h.issuer,
    });
  });

  it('serves the consent page with anti-framing headers and escapes reflected parameters', async () => {
    const h = createHarness();
    const client = await registerTestClient(h);
    const { challenge } = await pkcePair();
    const xss = '"><script>alert(1)</script>';
    const res = await h.fetch(
      authorizeUrl(h.issuer, {
        clientId: client.clientId,
        redirectUri: client.redirectUri,
        codeChallenge: challenge,
        state: xss,
      }).toString(),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await res.text();
    expect(html).not.toContain(xss);
    expect(html).toContain('&#34;&#62;&#60;script&#62;');
  });
});

describe('secrets', () => {
  it('never writes a client secret, code, verifier or token to the logs, the store, or an error', async () => {
    const h = createHarness();
    const registration = await h.fetch(`${h.issuer}/oauth/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Secretive', redirect_uris: ['https://client.example/callback'] }),
    });
    const registered = (await registration.json()) as { client_id: string; client_secret: string };
    const client = {
      clientId: registered.client_id,
      clientSecret: registered.client_secret,
      redirectUri: 'https://client.example/callback',
    };
    const auth = basicAuth(client.clientId, client.clientSecret);
    const wallet = await createTestWallet();
    const first = await obtainTokens(h, wallet, client, 'read write');
    const errorBodies: string[] = [];
    const collect = async (res: Response | Promise<Response>) => errorBodies.push(await (await res).text());

    // Every error path that receives a secret: replay, reuse, wrong secret, wrong verifier, bad bearer tokens.
    const replay = await tokenRequest(
      h,
      {
        grant_type: 'authorization_code',
        code: first.code,
        redirect_uri: client.redirectUri,
        code_verifier: first.verifier,
      },
      auth,
    );
    errorBodies.push(JSON.stringify(replay.body));
    const second = await obtainTokens(h, wallet, client, 'read');
    const rotated = await tokenRequest(
      h,
      { grant_type: 'refresh_token', refresh_token: second.refreshToken },
      auth,
    );
    const reuse = await tokenRequest(
      h,
      { grant_type: 'refresh_token', refresh_token: second.refreshToken },
      auth,
    );
    errorBodies.push(JSON.stringify(reuse.body));
    const wrongSecret = await tokenRequest(
      h,
      { grant_type: 'refresh_token', refresh_token: second.refreshToken },
      basicAuth(client.clientId, `${client.clientSecret}x`),
    );
    errorBodies.push(JSON.stringify(wrongSecret.body));
    const bad = await callSwap(h, 'GET', second.accessToken);
    errorBodies.push(JSON.stringify(bad.body), bad.headers.get('www-authenticate') ?? '');
    await collect(
      h.fetch(`${h.issuer}/v1/project/swap`, { headers: { authorization: `Bearer ${first.accessToken}!` } }),
    );
    await collect(
      h.fetch(`${h.issuer}/oauth/clients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}x`, 'content-type': 'application/json' },
        body: '{}',
      }),
    );

    const secrets = [
      client.clientSecret,
      ADMIN_TOKEN,
      first.code,
      first.verifier,
      first.accessToken,
      first.refreshToken,
      second.code,
      second.accessToken,
      second.refreshToken,
      rotated.body.access_token as string,
      rotated.body.refresh_token as string,
    ];
    expect(h.logger.lines.length).toBeGreaterThan(5);
    expect(h.logger.lines.some((l) => l.includes('refresh token reused'))).toBe(true);
    expect(h.logger.lines.some((l) => l.includes('authorization code replayed'))).toBe(true);
    const logText = h.logger.lines.join('\n');
    const errorText = errorBodies.join('\n');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(20);
      expect(logText).not.toContain(secret);
      expect(errorText).not.toContain(secret);
    }

    // At rest: only hashes. The raw values find nothing; their hashes find the records.
    const stored = (await h.store.clients.get(client.clientId))._unsafeUnwrap()!;
    expect(JSON.stringify(stored)).not.toContain(client.clientSecret);
    expect(stored.secretHash).toBe(hashSecret(client.clientSecret));
    expect((await h.store.findToken(second.accessToken))._unsafeUnwrap()).toBeNull();
    expect((await h.store.findToken(hashSecret(second.accessToken)))._unsafeUnwrap()).not.toBeNull();
    expect((await h.store.consumeCode(first.code, h.clock.now()))._unsafeUnwrap()).toBeNull();
  });

  it('protects the admin registration route and hides it when no admin token is configured', async () => {
    const h = createHarness();
    const body = JSON.stringify({ client_name: 'x', redirect_uris: ['https://client.example/cb'] });
    const headers = { 'content-type': 'application/json' };
    const none = await h.fetch(`${h.issuer}/oauth/clients`, { method: 'POST', headers, body });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const wrong = await h.fetch(`${h.issuer}/oauth/clients`, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer not-the-admin-token' },
      body,
    });
    expect(wrong.status).toBe(401);
    const disabled = createHarness({ adminToken: null });
    const res = await disabled.fetch(`${disabled.issuer}/oauth/clients`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${ADMIN_TOKEN}` },
      body,
    });
    expect(res.status).toBe(404);
    const meta = (await (
      await disabled.fetch(`${disabled.issuer}/.well-known/oauth-authorization-server`)
    ).json()) as object;
    expect(meta).not.toHaveProperty('registration_endpoint');
  });
});

describe('malformed requests never cause a 5xx', () => {
  it('answers 4xx to junk at every endpoint', async () => {
    const h = createHarness();
    const cases: [string, RequestInit][] = [
      [
        '/oauth/token',
        {
          method: 'POST',
          body: 'grant_type=password&username=a&password=b',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
      ],
      [
        '/oauth/token',
        {
          method: 'POST',
          body: '{"grant_type":"authorization_code"}',
          headers: { 'content-type': 'application/json' },
        },
      ],
      [
        '/oauth/token',
        {
          method: 'POST',
          body: 'grant_type=a&grant_type=b&client_id=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
      ],
      [
        '/oauth/token',
        {
          method: 'POST',
          body: 'grant_type=refresh_token',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic %%%' },
        },
      ],
      [
        '/oauth/token',
        {
          method: 'POST',
          body: 'grant_type=refresh_token',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from('a%ZZ:b').toString('base64')}`,
          },
        },
      ],
      [
        '/oauth/revoke',
        { method: 'POST', body: 'token=', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      ],
      ['/oauth/introspect', { method: 'POST', body: '', headers: {} }],
      [
        '/oauth/authorize',
        {
          method: 'POST',
          body: 'client_id=%FF',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
      ],
      ['/oauth/authorize?client_id=a&client_id=b', { method: 'GET' }],
      [
        '/oauth/authorize/challenge',
        { method: 'POST', body: 'null', headers: { 'content-type': 'application/json' } },
      ],
      [
        '/oauth/authorize/challenge',
        { method: 'POST', body: '{"address":"abc"}', headers: { 'content-type': 'application/json' } },
      ],
      [
        '/oauth/clients',
        {
          method: 'POST',
          body: '[1,2]',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
        },
      ],
      [
        '/oauth/token',
        {
          method: 'POST',
          body: 'x'.repeat(70 * 1024),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
      ],
    ];
    for (const [path, init] of cases) {
      const res = await h.fetch(`${h.issuer}${path}`, init);
      expect(res.status, `${init.method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${init.method} ${path}`).toBeLessThan(500);
    }
  });
});
