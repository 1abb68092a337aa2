/**
 * @token-actions/client against the real service (embedded defaults, in process): every interface
 * through the client as an integrator would call it, the OAuth sign-in included. It lives here,
 * not in packages/client, because it reuses the server's harness and wallet sign-in fixture, and
 * a package may not import an app (.dependency-cruiser.cjs).
 */
import {
  createActionsClient,
  createAdminClient,
  createInterfaceAClient,
  createInterfaceBClient,
  createOAuthClient,
  TokenActionsError,
} from '@token-actions/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveWithWallet, createTestWallet } from '../fixtures/oauth-harness.js';
import { type Harness, startHarness } from '../support/harness.js';

const ADMIN = 'admin-token-for-client-tests-0123456789';
const REDIRECT = 'http://127.0.0.1/client-test/callback';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ ADMIN_TOKEN: ADMIN, RATE_LIMIT_PER_MINUTE: '1000' });
}, 120_000);
afterAll(async () => {
  await h?.close();
});

/** Asks until `done` holds or 30 s pass; the worker loops advance statuses every 100 ms here. */
async function until<T>(ask: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await ask();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('interface A through the client', () => {
  it('creates an account, airdrops to it, donates from it and tracks the donation to finalized', async () => {
    const a = createInterfaceAClient({ baseUrl: h.baseUrl, apiKey: h.apiKey });
    const { publicKey } = await a.POST('/v1/api/accounts');
    await a.POST('/v1/api/accounts/{publicKey}/airdrop', {
      params: { path: { publicKey } },
      body: { currency: 'SOL', amount: '2' },
    });

    const body = { account: publicKey, amount: '0.25', priority: 'Medium' } as const;
    const donation = await a.POST('/v1/api/donate/sol', { body, idempotencyKey: `donation-${publicKey}` });
    // The same key again is the service's stored answer: one transfer, one transaction id.
    const replay = await a.POST('/v1/api/donate/sol', { body, idempotencyKey: `donation-${publicKey}` });
    expect(replay.transactionId).toBe(donation.transactionId);

    const tracked = await until(
      () =>
        a.GET('/v1/api/transaction/track/{transactionId}', {
          params: { path: { transactionId: donation.transactionId } },
        }),
      (t) => t.status === 'finalized',
    );
    expect(tracked.status).toBe('finalized');

    const account = await a.GET('/v1/api/accounts/{publicKey}', { params: { path: { publicKey } } });
    const sol = account.balances.find((b) => b.currency === 'SOL');
    // Amounts are decimal strings, as on the wire: 2 SOL airdropped, 0.25 donated, the fee paid by the service.
    expect(sol?.amount).toBe('1.75');
  });

  it('throws a TokenActionsError with the status and message of a refused request', async () => {
    const a = createInterfaceAClient({ baseUrl: h.baseUrl, apiKey: h.apiKey });
    const { publicKey } = await a.POST('/v1/api/accounts');
    const error = await a
      .POST('/v1/api/donate/sol', { body: { account: publicKey, amount: '1e3', priority: 'Low' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenActionsError);
    expect(error).toMatchObject({ status: 400, message: expect.stringMatching(/amount/) });
  });
});

describe('interface B through the client', () => {
  it('signs in with a wallet (PKCE), quotes with rateLimit, refreshes with rotation and revokes', async () => {
    const admin = createAdminClient({ baseUrl: h.baseUrl, adminToken: ADMIN });
    const registered = await admin.POST('/oauth/clients', {
      body: { client_name: 'Client package test', redirect_uris: [REDIRECT], scope: 'read write' },
    });
    const oauth = await createOAuthClient({
      issuer: h.baseUrl,
      clientId: registered.client_id,
      ...(registered.client_secret ? { clientSecret: registered.client_secret } : {}),
      redirectUri: REDIRECT,
      allowInsecureRequests: true,
    });
    const request = await oauth.authorizationUrl({ scope: 'read write' });
    expect(request.url.searchParams.get('code_challenge_method')).toBe('S256');

    // The consent page's part: the wallet signs the Sign-In With Solana message, the user approves.
    const consent = {
      issuer: h.baseUrl,
      fetch: (input: string | URL | Request, init?: RequestInit) =>
        fetch(input, { ...init, redirect: 'manual' }),
    };
    const { location } = await approveWithWallet(consent, await createTestWallet(), request.url);
    expect(location?.origin + location!.pathname).toBe(REDIRECT);
    const tokens = await oauth.exchangeCode(location!, request);

    const b = createInterfaceBClient({ baseUrl: h.baseUrl, accessToken: tokens.accessToken });
    const first = await b.GET('/v1/project/swap', {
      params: { query: { tokenPair: 'SOL-USDC', amount: '1' } },
    });
    const second = await b.GET('/v1/project/swap', {
      params: { query: { tokenPair: 'SOL-USDC', amount: '1' } },
    });
    expect(first.quote?.outAmount).toMatch(/^\d+$/);
    expect(first.rateLimit.limit).toBe(1000);
    expect(second.rateLimit.remaining).toBe(first.rateLimit.remaining - 1);

    const rotated = await oauth.refresh(tokens.refreshToken!);
    expect(rotated.refreshToken).toBeDefined();
    expect(rotated.refreshToken).not.toBe(tokens.refreshToken);
    const after = createInterfaceBClient({ baseUrl: h.baseUrl, accessToken: rotated.accessToken });
    await after.GET('/v1/webhooks/secret');

    await oauth.revoke(rotated.accessToken, 'access_token');
    const refused = await after.GET('/v1/webhooks/secret').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TokenActionsError);
    expect(refused).toMatchObject({
      status: 401,
      code: 'INVALID_TOKEN',
      rateLimit: { limit: expect.any(Number) },
    });

    // The rotated-out refresh token is spent: the server sees a replay.
    const replayed = await oauth.refresh(tokens.refreshToken!).catch((e: unknown) => e);
    expect(replayed).toMatchObject({ status: 400, code: 'invalid_grant' });
  });
});

describe('the Actions and the admin API through the client', () => {
  it('reads actions.json and an action', async () => {
    const actions = createActionsClient({ baseUrl: h.baseUrl });
    const { rules } = await actions.GET('/actions.json');
    expect(rules.map((r) => r.apiPath)).toContain('/v1/actions/donate/sol');
    const donate = await actions.GET('/v1/actions/donate/sol');
    expect(donate.type).toBe('action');
    expect(donate.links.actions.length).toBeGreaterThan(0);
  });

  it('issues an API key that interface A accepts, and revokes it', async () => {
    const admin = createAdminClient({ baseUrl: h.baseUrl, adminToken: ADMIN });
    const issued = await admin.POST('/v1/admin/api-keys', { body: { label: 'client package test' } });
    const a = createInterfaceAClient({ baseUrl: h.baseUrl, apiKey: issued.apiKey });
    await a.POST('/v1/api/accounts');
    const listed = await admin.GET('/v1/admin/api-keys');
    expect(listed.apiKeys.map((k) => k.id)).toContain(issued.id);

    await admin.DELETE('/v1/admin/api-keys/{id}', { params: { path: { id: issued.id } } });
    const refused = await a.POST('/v1/api/accounts').catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 401 });
  });
});
