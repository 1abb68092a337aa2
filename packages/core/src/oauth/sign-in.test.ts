import { describe, expect, it } from 'vitest';
import { consentFormParams } from './authorize.js';
import { hashSecret } from './secrets.js';
import { authorizationRequestId, completeAuthorization, issueSignInChallenge } from './sign-in.js';
import { createTestbed, createTestWallet, form, ISSUER, pkcePair, REDIRECT_URI } from './testbed.js';

async function setup() {
  const t = createTestbed();
  const { client } = await t.register('confidential');
  const wallet = await createTestWallet();
  const pkce = pkcePair();
  const request = t.requestFor(client, pkce.challenge);
  return { t, client, wallet, pkce, request };
}

describe('issueSignInChallenge (SIWS for the resource owner, RFC 6749 section 3.1)', () => {
  it('hands out a SIWS message naming the client, the scope, this authorization request and a fresh nonce', async () => {
    const { t, client, wallet, request } = await setup();
    const challenge = (
      await issueSignInChallenge(
        t.deps,
        t.settings,
        JSON.stringify({ address: wallet.address, ...consentFormParams(request) }),
      )
    )._unsafeUnwrap();
    expect(challenge.message).toBe(
      [
        `as.example wants you to sign in with your Solana account:\n${wallet.address}\n`,
        `Approve ${client.name} (client ${client.id}) to use this wallet for swaps with scope: read\n`,
        `URI: ${ISSUER}/oauth/authorize`,
        'Version: 1',
        'Chain ID: localnet',
        `Nonce: ${challenge.nonce}`,
        `Issued At: ${challenge.issuedAt}`,
        `Expiration Time: ${challenge.expirationTime}`,
        `Request ID: ${authorizationRequestId(request)}`,
      ].join('\n'),
    );
    expect(authorizationRequestId(request)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(challenge.expirationTime) - Date.parse(challenge.issuedAt)).toBe(300_000);
    expect((await t.store.consumeNonce(challenge.nonce, t.clock.now()))._unsafeUnwrap()).toBe(true);
  });

  it('refuses a challenge for an authorization request that is not valid: redirect URI, PKCE', async () => {
    const { t, wallet, request } = await setup();
    const refuse = async (overrides: Record<string, string | undefined>) => {
      const body = { address: wallet.address, ...consentFormParams(request), ...overrides };
      const failure = (
        await issueSignInChallenge(t.deps, t.settings, JSON.stringify(body))
      )._unsafeUnwrapErr();
      return 'error' in failure ? `${failure.error}: ${failure.description}` : failure.code;
    };
    expect(await refuse({ redirect_uri: 'https://evil.example/cb' })).toMatch(
      /^invalid_request: redirect_uri is missing or does not exactly match/,
    );
    expect(await refuse({ code_challenge: undefined })).toBe(
      'invalid_request: code_challenge is required (PKCE S256)',
    );
    expect(await refuse({ code_challenge_method: 'plain' })).toBe(
      'invalid_request: code_challenge_method must be S256',
    );
  });

  it('refuses a body that is not JSON, a bad address, an unknown client and a scope beyond the client', async () => {
    const { t, client, wallet } = await setup();
    const { client: readOnly } = await t.register('public', ['read']);
    const refuse = async (body: string | undefined) => {
      const failure = (await issueSignInChallenge(t.deps, t.settings, body))._unsafeUnwrapErr();
      return 'error' in failure ? `${failure.error}: ${failure.description}` : failure.code;
    };
    expect(await refuse('{')).toBe('invalid_request: the body must be JSON');
    expect(await refuse(undefined)).toBe('invalid_request: the body must be JSON');
    expect(await refuse(JSON.stringify({ address: 'nope', client_id: client.id }))).toMatch(
      /^invalid_request: address/,
    );
    expect(
      await refuse(JSON.stringify({ address: wallet.address, client_id: 'nobody', scope: 'read' })),
    ).toBe('invalid_request: unknown client_id');
    expect(
      await refuse(JSON.stringify({ address: wallet.address, client_id: readOnly.id, scope: 'write' })),
    ).toBe('invalid_scope: the application may not request this scope');
  });
});

describe('completeAuthorization (RFC 6749 section 4.1.2)', () => {
  it('issues a single-use code bound to client, redirect URI, scope, wallet and challenge, for at most 60 s', async () => {
    const { t, client, wallet, pkce, request } = await setup();
    const location = (
      await completeAuthorization(t.deps, t.settings, await t.consentForm(request, wallet))
    )._unsafeUnwrap();
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT_URI);
    expect(url.searchParams.get('state')).toBe('st-1');
    expect(url.searchParams.get('iss')).toBe(ISSUER);
    const code = url.searchParams.get('code')!;
    expect(code).toMatch(/^taac_/);
    const consumed = (await t.store.consumeCode(hashSecret(code), t.clock.now()))._unsafeUnwrap();
    expect(consumed?.code).toMatchObject({
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      scope: ['read'],
      subject: wallet.address,
      codeChallenge: pkce.challenge,
    });
    // The testbed asks for 600 s; codes are capped at a minute.
    expect(consumed!.code.expiresAt.getTime() - t.clock.now().getTime()).toBe(60_000);
    expect(t.lines.some((l) => l.includes('authorization code issued') && !l.includes(code))).toBe(true);
  });

  it('4.1.2.1: a denial goes back to the client as access_denied', async () => {
    const { t, request } = await setup();
    const denied = await completeAuthorization(
      t.deps,
      t.settings,
      form({ ...consentFormParams(request), decision: 'deny' }),
    );
    const failure = denied._unsafeUnwrapErr();
    expect(failure).toMatchObject({ kind: 'redirect' });
    const url = new URL('location' in failure ? failure.location : '');
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe('st-1');
  });

  it('re-validates the request the form carries, and refuses a non-form body or an unknown decision', async () => {
    const { t, request, wallet } = await setup();
    expect((await completeAuthorization(t.deps, t.settings, undefined))._unsafeUnwrapErr()).toMatchObject({
      kind: 'page',
      detail: 'the consent form was not submitted as a form',
    });
    const tampered = await t.consentForm(request, wallet, { redirect_uri: 'https://evil.example/cb' });
    expect((await completeAuthorization(t.deps, t.settings, tampered))._unsafeUnwrapErr()).toMatchObject({
      kind: 'page',
      title: 'Invalid redirect URI',
    });
    const maybe = await t.consentForm(request, wallet, { decision: 'maybe' });
    expect((await completeAuthorization(t.deps, t.settings, maybe))._unsafeUnwrapErr()).toMatchObject({
      detail: 'decision must be approve or deny',
    });
  });

  it('redeems a sign-in nonce once', async () => {
    const { t, request, wallet } = await setup();
    const signed = await t.consentForm(request, wallet);
    expect((await completeAuthorization(t.deps, t.settings, signed)).isOk()).toBe(true);
    expect((await completeAuthorization(t.deps, t.settings, signed))._unsafeUnwrapErr()).toMatchObject({
      kind: 'page',
      detail: 'This sign-in request expired or was already used. Go back to the application and start again.',
    });
  });

  it('refuses a signature by another wallet, and burns the nonce doing so', async () => {
    const { t, request, wallet } = await setup();
    const other = await createTestWallet();
    const signed = await t.consentForm(request, wallet);
    const forged = new URLSearchParams(signed);
    forged.set('signature', (await t.consentForm(request, other)).get('signature')!);
    expect((await completeAuthorization(t.deps, t.settings, forged))._unsafeUnwrapErr()).toMatchObject({
      detail:
        'The wallet signature does not match the sign-in message. Go back to the application and start again.',
    });
    expect(t.lines.some((l) => l.includes('wallet signature rejected'))).toBe(true);
    expect((await completeAuthorization(t.deps, t.settings, signed))._unsafeUnwrapErr()).toMatchObject({
      detail: expect.stringContaining('already used'),
    });
  });

  it('refuses an approval whose signed scope differs from the request', async () => {
    const { t, client, wallet, pkce } = await setup();
    const signedForRead = await t.consentForm(t.requestFor(client, pkce.challenge, ['read']), wallet);
    signedForRead.set('scope', 'read write');
    expect((await completeAuthorization(t.deps, t.settings, signedForRead))._unsafeUnwrapErr()).toMatchObject(
      {
        detail: expect.stringContaining('does not match the sign-in message'),
      },
    );
  });

  it('refuses a signature given for another authorization request: code_challenge, state or redirect_uri swapped', async () => {
    const { t, client, wallet, pkce, request } = await setup();
    const other = pkcePair('b');
    for (const swap of [
      { code_challenge: other.challenge },
      { state: 'attacker-state' },
      { redirect_uri: `${request.redirectUri}` },
    ]) {
      const signed = await t.consentForm(request, wallet);
      for (const [name, value] of Object.entries(swap)) signed.set(name, value);
      const result = await completeAuthorization(t.deps, t.settings, signed);
      if ('redirect_uri' in swap) {
        // The same redirect URI: the control case, this one completes.
        expect(result.isOk()).toBe(true);
        continue;
      }
      expect(result._unsafeUnwrapErr(), JSON.stringify(swap)).toMatchObject({
        detail: expect.stringContaining('does not match the sign-in message'),
      });
    }
    // A second registered redirect URI of the same client is another request too.
    const second = 'https://app.example/second';
    await t.store.clients.upsert({ ...client, redirectUris: [...client.redirectUris, second] });
    const signed = await t.consentForm(request, wallet);
    signed.set('redirect_uri', second);
    expect((await completeAuthorization(t.deps, t.settings, signed))._unsafeUnwrapErr()).toMatchObject({
      detail: expect.stringContaining('does not match the sign-in message'),
    });
    expect(pkce.challenge).not.toBe(other.challenge);
  });

  it('refuses malformed or stale sign-in fields before touching the nonce', async () => {
    const { t, request, wallet } = await setup();
    const detailOf = async (overrides: Record<string, string>) => {
      const failure = (
        await completeAuthorization(t.deps, t.settings, await t.consentForm(request, wallet, overrides))
      )._unsafeUnwrapErr();
      return 'detail' in failure
        ? failure.detail.replace(' Go back to the application and start again.', '')
        : '';
    };
    expect(await detailOf({ address: 'not-a-key' })).toBe('The wallet address is not a Solana public key.');
    expect(await detailOf({ signature: '***' })).toBe('The signature is not valid base64.');
    expect(await detailOf({ nonce: '' })).toBe('The sign-in message is incomplete.');
    expect(await detailOf({ issued_at: '2025-06-01' })).toBe('The sign-in message is incomplete.');
    const later = new Date(t.clock.now().getTime() + 10 * 60_000).toISOString();
    expect(await detailOf({ issued_at: later })).toBe('The sign-in message has expired.');
    const signed = await t.consentForm(request, wallet);
    t.clock.advance(300_000);
    expect((await completeAuthorization(t.deps, t.settings, signed))._unsafeUnwrapErr()).toMatchObject({
      detail: expect.stringContaining('The sign-in message has expired.'),
    });
  });
});
