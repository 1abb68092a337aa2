/**
 * A browser app on another origin. Headless Chromium loads a page from a
 * second local HTTP server (a public OAuth client's origin) which exchanges its code at the token
 * endpoint, reads the metadata, calls interface B with the bearer token (a real preflight, as the
 * request carries Authorization) and revokes its refresh token, all through CORS. A page from an
 * origin no public client registered is refused by the browser itself, and interface A stays
 * closed to browsers; the Solana Actions answer any origin.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../../src/oauth/index.js';
import { approveWithWallet, authorizeUrl, createTestWallet } from '../fixtures/oauth-harness.js';
import { type Harness, startHarness } from '../support/harness.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(`SKIPPED: the CORS browser test needs Chromium at ${CHROMIUM} (apt-get install -y chromium).`);
}

/** A page server: its origin is all that matters, the page itself is empty. */
async function pageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>app');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe.skipIf(!haveChromium)('a browser app on another origin', () => {
  let h: Harness;
  let browser: Browser;
  let allowed: { server: Server; origin: string };
  let refused: { server: Server; origin: string };

  beforeAll(async () => {
    h = await startHarness();
    [allowed, refused] = await Promise.all([pageServer(), pageServer()]);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    for (const s of [allowed, refused]) await new Promise((resolve) => s?.server.close(resolve));
    await h?.close();
  });

  async function openPage(origin: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${origin}/`);
    return page;
  }

  /** A code for a public client whose redirect URI is on the allowed page's origin. */
  async function codeForPublicClient() {
    const { composition } = h.server;
    const redirectUri = `${allowed.origin}/callback`;
    const client = (
      await registerClient(
        { store: composition.oauthStore, clock: composition.deps.clock },
        { name: 'Browser swap app', type: 'public', redirectUris: [redirectUri], scopes: ['read', 'write'] },
      )
    )._unsafeUnwrap().client;
    const verifier = oauth.generateRandomCodeVerifier();
    const url = authorizeUrl(h.baseUrl, {
      clientId: client.id,
      redirectUri,
      scope: 'read write',
      state: 's',
      codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
    });
    const http = {
      issuer: h.baseUrl,
      fetch: (input: string | URL | Request, init?: RequestInit) =>
        fetch(input, { ...init, redirect: 'manual' }),
    };
    const { location } = await approveWithWallet(http as never, await createTestWallet(), url);
    const code = location?.searchParams.get('code');
    if (!code) throw new Error('no code');
    return { clientId: client.id, redirectUri, verifier, code };
  }

  it('exchanges a code, reads the metadata, calls interface B and revokes, all cross-origin', async () => {
    const grant = await codeForPublicClient();
    const page = await openPage(allowed.origin);
    const result = await page.evaluate(
      async ({ base, grant }) => {
        const tokenRes = await fetch(`${base}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code: grant.code,
            redirect_uri: grant.redirectUri,
            client_id: grant.clientId,
            code_verifier: grant.verifier,
          }),
        });
        const tokens = (await tokenRes.json()) as { access_token: string; refresh_token: string };
        const metadata = await fetch(`${base}/.well-known/oauth-authorization-server`);
        const swap = await fetch(`${base}/v1/project/swap?tokenPair=SOL-USDC&amount=1`, {
          headers: { authorization: `Bearer ${tokens.access_token}` },
        });
        const swapBody = (await swap.json()) as Record<string, unknown>;
        const unauthenticated = await fetch(`${base}/v1/project/swap?tokenPair=SOL-USDC`);
        const revoke = await fetch(`${base}/oauth/revoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token: tokens.refresh_token, client_id: grant.clientId }),
        });
        return {
          tokenStatus: tokenRes.status,
          tokenType: (tokens as unknown as { token_type: string }).token_type,
          metadataIssuer: ((await metadata.json()) as { issuer: string }).issuer,
          swapStatus: swap.status,
          swapKeys: Object.keys(swapBody),
          rateLimitHeader: swap.headers.get('RateLimit'),
          unauthenticatedStatus: unauthenticated.status,
          challenge: unauthenticated.headers.get('WWW-Authenticate'),
          revokeStatus: revoke.status,
        };
      },
      { base: h.baseUrl, grant },
    );
    expect(result).toMatchObject({
      tokenStatus: 200,
      tokenType: 'Bearer',
      metadataIssuer: h.baseUrl,
      swapStatus: 200,
      unauthenticatedStatus: 401,
      revokeStatus: 200,
    });
    expect(result.swapKeys).toEqual(expect.arrayContaining(['pool', 'quote', 'rateLimit']));
    // Exposed to the page: the rate-limit state and the RFC 6750 challenge.
    expect(result.rateLimitHeader).toMatch(/^"client";r=\d+;t=\d+$/);
    expect(result.challenge).toMatch(/^Bearer /);
  });

  it('is refused by the browser on an origin no public client registered', async () => {
    const page = await openPage(refused.origin);
    const outcome = await page.evaluate(async (base) => {
      const attempt = (url: string, init?: RequestInit) =>
        fetch(url, init).then(
          (res) => `answered ${res.status}`,
          (error: unknown) => `refused: ${(error as Error).name}`,
        );
      return {
        swap: await attempt(`${base}/v1/project/swap?tokenPair=SOL-USDC`, {
          headers: { authorization: 'Bearer taat_x' },
        }),
        token: await attempt(`${base}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=refresh_token&refresh_token=x&client_id=y',
        }),
        metadata: await attempt(`${base}/.well-known/oauth-authorization-server`),
        actions: await attempt(`${base}/actions.json`),
      };
    }, h.baseUrl);
    expect(outcome).toEqual({
      swap: 'refused: TypeError',
      token: 'refused: TypeError',
      metadata: 'refused: TypeError',
      // Solana Actions are for any blink client or wallet, whatever its origin.
      actions: 'answered 200',
    });
  });

  it('keeps interface A closed to browsers even on an allowed origin', async () => {
    const page = await openPage(allowed.origin);
    const outcome = await page.evaluate(
      async ({ base, apiKey }) => {
        return fetch(`${base}/v1/api/transaction/track/1111`, {
          headers: { authorization: `Bearer ${apiKey}` },
        }).then(
          (res) => `answered ${res.status}`,
          (error: unknown) => `refused: ${(error as Error).name}`,
        );
      },
      { base: h.baseUrl, apiKey: h.apiKey },
    );
    expect(outcome).toBe('refused: TypeError');
  });
});
