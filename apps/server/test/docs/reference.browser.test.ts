/**
 * The API reference in a real browser: /v1/docs renders from the service's own assets, its search
 * finds an operation, and try-it sends a request with the dev API key and shows the answer.
 * Needs `apt-get install -y chromium`; skipped with a message when /usr/bin/chromium is absent.
 * The screenshot lands in test/.artifacts/docs-try-it.png (gitignored).
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(
    `SKIPPED: the API reference browser test needs Chromium at ${CHROMIUM} (apt-get install -y chromium).`,
  );
}
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', '.artifacts');

describe.skipIf(!haveChromium)('API reference (/v1/docs) in a real browser', () => {
  let h: Harness;
  let browser: Browser;

  beforeAll(async () => {
    h = await startHarness();
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
    await h?.close();
  });

  it('authorizes with the dev API key, finds an operation by search and sends it through try-it', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const elsewhere: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(h.baseUrl) && !r.url().startsWith('data:')) elsewhere.push(r.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));

    await page.goto(`${h.baseUrl}/v1/docs`);
    await expect
      .poll(() => page.getByText('Token Actions').first().isVisible(), { timeout: 30_000 })
      .toBe(true);

    // The API key goes into the reference's auth panel (interface A's scheme is preselected).
    await page.getByPlaceholder('Token').first().fill(h.apiKey);

    // Search finds the operation; its try-it client sends it from this origin.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('managed account');
    await page.getByRole('dialog').getByText('Create a managed (custodial) account').first().click();
    await page.getByRole('button', { name: 'Test Request (post /v1/api/accounts)' }).click();
    const sent = page.waitForResponse(
      (r) => r.url() === `${h.baseUrl}/v1/api/accounts` && r.request().method() === 'POST',
    );
    await page.locator('button', { hasText: 'Send' }).filter({ visible: true }).first().click();
    const response = await sent;
    expect(response.request().headers().authorization).toBe(`Bearer ${h.apiKey}`);
    expect(response.status()).toBe(200);

    // The answer is shown in the page, and it is real: the account exists and is managed.
    await expect.poll(() => page.getByText('200 OK').first().isVisible(), { timeout: 10_000 }).toBe(true);
    const { publicKey } = (await response.json()) as { publicKey: string };
    await expect.poll(() => page.getByText(publicKey).first().isVisible(), { timeout: 10_000 }).toBe(true);
    const account = await h.call('GET', `/v1/api/accounts/${publicKey}`);
    expect(account.json.managed).toBe(true);

    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'docs-try-it.png') });

    // Nothing was fetched from anywhere else (no CDN, fonts or telemetry), and the CSP let it all run.
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
