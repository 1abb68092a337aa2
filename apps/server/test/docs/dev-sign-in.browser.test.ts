/**
 * Interface B from the API reference with nothing but a browser, on the embedded localnet: the
 * page's "Authorize via oauth2" opens the consent page for the demo client, the development
 * wallet signs in, the reference redeems the code, and try-it on GET /v1/project/swap answers 200.
 * Off the embedded localnet (here: a server on the `rpc` adapter pointed at a localnet process)
 * the development wallet is not offered, not even in the HTML.
 * Needs `apt-get install -y chromium`; skipped with a message when /usr/bin/chromium is absent.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as oauth from 'oauth4webapi';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeUrl } from '../fixtures/oauth-harness.js';
import { startTestLocalnet, stopChild } from '../scale/process.js';
import { type Harness, startHarness } from '../support/harness.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(`SKIPPED: the development sign-in browser test needs Chromium at ${CHROMIUM}.`);
}
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', '.artifacts');

const launch = () =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });

describe.skipIf(!haveChromium)('development sign-in on the embedded localnet', () => {
  let h: Harness;
  let browser: Browser;
  beforeAll(async () => {
    h = await startHarness();
    browser = await launch();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('docs Authorize → consent page → development wallet → token → try-it on GET /v1/project/swap answers 200', async () => {
    const demo = h.server.credentials.oauth!;
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${h.baseUrl}/v1/docs`);
    await expect
      .poll(() => page.getByText('Token Actions').first().isVisible(), { timeout: 30_000 })
      .toBe(true);

    await page.keyboard.press('Control+k');
    await page.keyboard.type('project swap');
    await page.getByRole('dialog').getByText("The pair's pool, an indicative quote").first().click();
    await page.getByRole('button', { name: 'Test Request (get /v1/project/swap)' }).click();

    // The flow's settings (the gear beside the button): the demo client is filled in, its
    // redirect is this page, PKCE is on; only the secret, from dev-credentials.json, is typed.
    const authorize = page.getByRole('button', { name: 'Authorize via oauth2' }).last();
    await authorize.locator('xpath=following-sibling::button[1]').click();
    await page.getByPlaceholder('XYZ123').fill(demo.clientSecret);
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Authorize', exact: true }).click();
    const consent = await popupOpened;
    await consent.waitForLoadState();
    const asked = new URL(consent.url());
    expect(asked.pathname).toBe('/oauth/authorize');
    expect(asked.searchParams.get('client_id')).toBe(demo.clientId);
    expect(asked.searchParams.get('redirect_uri')).toBe(`${h.baseUrl}/v1/docs`);
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');

    // No wallet extension in this browser: the development wallet is offered, and signs in.
    await expect.poll(() => consent.locator('#dev-wallet').isVisible()).toBe(true);
    await expect(consent.locator('#dev-wallet h2').textContent()).resolves.toContain('localnet only');
    await mkdir(ARTIFACTS, { recursive: true });
    await consent.screenshot({ path: join(ARTIFACTS, 'consent-dev-wallet.png') });
    const tokenIssued = page.waitForResponse((r) => r.url() === `${h.baseUrl}/oauth/token`);
    await consent.click('#dev-wallet-approve');
    const token = await tokenIssued;
    expect(token.status()).toBe(200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    await expect.poll(() => consent.isClosed(), { timeout: 10_000 }).toBe(true);

    const sent = page.waitForResponse((r) => r.url().startsWith(`${h.baseUrl}/v1/project/swap`));
    await page.locator('button', { hasText: 'Send' }).filter({ visible: true }).first().click();
    const answer = await sent;
    expect(answer.request().headers().authorization).toBe(`Bearer ${accessToken}`);
    expect(answer.status()).toBe(200);
    const body = (await answer.json()) as { pool: { id: string }; rateLimit: { limit: number } };
    expect(body.pool.id).toBe('SOL-USDC');
    await expect.poll(() => page.getByText('200 OK').first().isVisible(), { timeout: 10_000 }).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'docs-oauth-try-it.png') });

    // The token speaks for the page's own wallet: a key pair the server never saw.
    const introspected = await fetch(`${h.baseUrl}/oauth/introspect`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${demo.clientId}:${demo.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ token: accessToken }),
    });
    expect(await introspected.json()).toMatchObject({
      active: true,
      client_id: demo.clientId,
      scope: 'read write',
    });
    expect(problems).toEqual([]);
    await page.close();
  }, 180_000);
});

describe.skipIf(!haveChromium)('no development wallet off the embedded localnet', () => {
  const cleanup: Array<() => Promise<void>> = [];
  let h: Harness;
  let browser: Browser;
  beforeAll(async () => {
    const root = await mkdtemp(join(tmpdir(), 'ta-devwallet-rpc-'));
    cleanup.push(() => rm(root, { recursive: true, force: true }));
    const masterKey = randomBytes(32).toString('hex');
    const localnet = await startTestLocalnet(root, masterKey);
    cleanup.push(() => stopChild(localnet.child));
    // A localnet, but reached over RPC: the demo client exists, the development wallet does not.
    h = await startHarness({ SOLANA_RPC_URL: localnet.rpcUrl, KEYSTORE_MASTER_KEY: masterKey });
    cleanup.push(() => h.close());
    browser = await launch();
    cleanup.push(() => browser.close());
  }, 120_000);
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn().catch(() => {});
  });

  it('the consent page holds neither the button nor its code, and says no wallet was found', async () => {
    expect(h.server.composition.isLocalnet).toBe(true);
    expect(h.server.composition.localnet).toBeUndefined();
    const demo = h.server.credentials.oauth!;
    const url = authorizeUrl(h.baseUrl, {
      clientId: demo.clientId,
      redirectUri: demo.redirectUri,
      scope: 'read',
      state: 'rpc',
      codeChallenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
    });
    const html = await (await fetch(url)).text();
    expect(html).toContain('Sign in with wallet and approve');
    expect(html).not.toMatch(/dev-wallet|development wallet|generateKey/i);

    const page = await browser.newPage();
    await page.goto(url.toString());
    await page.click('#approve');
    await expect
      .poll(() => page.locator('#status').textContent())
      .toBe('No Solana wallet was found in this browser.');
    expect(await page.locator('button').allTextContents()).toEqual([
      'Sign in with wallet and approve',
      'Deny',
    ]);
    await page.close();
  }, 60_000);
});
