/**
 * Headless Chromium (the Debian package) drives the real consent page with a test
 * wallet injected as window.solana, approves, and lands on the client's redirect URI with a code.
 * Needs `apt-get install -y chromium`; skipped with a message when /usr/bin/chromium is absent.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import * as oauth from 'oauth4webapi';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizeUrl,
  createHarness,
  createTestWallet,
  type Harness,
  registerTestClient,
  type TestWallet,
} from '../fixtures/oauth-harness.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(
    `SKIPPED: the consent-page browser test needs Chromium at ${CHROMIUM} (apt-get install -y chromium).`,
  );
}

function listen(server: Server | ServerType): Promise<number> {
  return new Promise((resolve) => {
    const onListening = () => resolve((server.address() as AddressInfo).port);
    if (server.listening) onListening();
    else server.once('listening', onListening);
  });
}

describe.skipIf(!haveChromium)('consent page in a real browser', () => {
  let browser: Browser;
  let authServer: ServerType;
  let clientServer: Server;
  let h: Harness;
  let wallet: TestWallet;
  let callbackBase: string;

  beforeAll(async () => {
    // The issuer must be the address the browser reaches, so the app is built once the port is known.
    let app: Harness['app'] | undefined;
    authServer = serve({ fetch: (req, env) => app!.fetch(req, env), port: 0, hostname: '127.0.0.1' });
    const port = await listen(authServer);
    h = createHarness({ issuer: `http://127.0.0.1:${port}` });
    app = h.app;

    // The OAuth client's own web server: its callback page just says so.
    clientServer = createServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>client callback</title>ok');
    }).listen(0, '127.0.0.1');
    callbackBase = `http://127.0.0.1:${await listen(clientServer)}`;
    wallet = await createTestWallet();

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
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => authServer?.close(resolve));
    await new Promise((resolve) => clientServer?.close(resolve));
  });

  async function openConsent(state: string, scope = 'read write') {
    const redirectUri = `${callbackBase}/callback`;
    const client = await registerTestClient(h, { name: 'Browser test app', redirectUris: [redirectUri] });
    const verifier = oauth.generateRandomCodeVerifier();
    const url = authorizeUrl(h.issuer, {
      clientId: client.clientId,
      redirectUri,
      scope,
      state,
      codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    const signed: string[] = [];
    // The wallet's key stays in Node; the page only ever sees signatures, as with a real wallet.
    await page.exposeFunction('__testWalletSign', async (messageBase64: string) => {
      const message = Buffer.from(messageBase64, 'base64');
      signed.push(message.toString('utf8'));
      return Buffer.from(await wallet.sign(message)).toString('base64');
    });
    await page.addInitScript((address: string) => {
      const publicKey = { toBase58: () => address, toString: () => address };
      const w = window as unknown as Record<string, unknown>;
      const sign = w.__testWalletSign as (b64: string) => Promise<string>;
      const provider: { isConnected: boolean; publicKey: unknown; [k: string]: unknown } = {
        isConnected: false,
        publicKey: null,
        async connect() {
          provider.isConnected = true;
          provider.publicKey = publicKey;
          return { publicKey };
        },
        async signMessage(message: Uint8Array) {
          let binary = '';
          for (const byte of message) binary += String.fromCharCode(byte);
          const signature = await sign(btoa(binary));
          return { signature: Uint8Array.from(atob(signature), (c) => c.charCodeAt(0)), publicKey };
        },
      };
      w.solana = provider;
    }, wallet.address);
    await page.goto(url.toString());
    return { page, context, client, verifier, redirectUri, signed };
  }

  it('signs in with the injected wallet, approves, and lands on the redirect URI with a working code', async () => {
    const { page, context, client, verifier, redirectUri, signed } = await openConsent('browser-state');
    await expect(page.locator('h1').textContent()).resolves.toContain('Browser test app');
    await page.screenshot({ path: process.env.CONSENT_SCREENSHOT ?? '/tmp/consent-page.png' });

    await Promise.all([page.waitForURL(`${redirectUri}?**`, { timeout: 15_000 }), page.click('#approve')]);
    const landed = new URL(page.url());
    expect(landed.origin + landed.pathname).toBe(redirectUri);
    expect(landed.searchParams.get('state')).toBe('browser-state');
    expect(landed.searchParams.get('iss')).toBe(h.issuer);
    const code = landed.searchParams.get('code');
    expect(code).toMatch(/^taac_/);

    // What the wallet was asked to sign: a SIWS message for this server, naming the client and scopes.
    expect(signed).toHaveLength(1);
    expect(signed[0]).toContain(
      `${new URL(h.issuer).host} wants you to sign in with your Solana account:\n${wallet.address}`,
    );
    expect(signed[0]).toContain(`(client ${client.clientId})`);
    expect(signed[0]).toContain('scope: read write');

    // The code is real: the client exchanges it.
    const token = await fetch(`${h.issuer}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: code!,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }),
    });
    expect(token.status).toBe(200);
    const body = (await token.json()) as { access_token: string; scope: string };
    expect(body.scope).toBe('read write');
    const swap = await fetch(`${h.issuer}/v1/project/swap`, {
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(((await swap.json()) as { subject: string }).subject).toBe(wallet.address);
    await context.close();
  }, 30_000);

  it('sends the user back with access_denied when they deny', async () => {
    const { page, context, redirectUri, signed } = await openConsent('deny-state', 'read');
    await Promise.all([page.waitForURL(`${redirectUri}?**`, { timeout: 15_000 }), page.click('#deny')]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe('deny-state');
    expect(landed.searchParams.get('code')).toBeNull();
    expect(signed).toHaveLength(0);
    await context.close();
  }, 30_000);
});
