/**
 * Hardening of the consent step: the signed message names the authorization request, the
 * consent POST only comes from the consent page's own origin, and the page limits where forms go.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  approveWithWallet,
  authorizeUrl,
  createHarness,
  createTestWallet,
  registerTestClient,
} from '../fixtures/oauth-harness.js';

const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

async function setup() {
  const h = createHarness();
  const client = await registerTestClient(h);
  const wallet = await createTestWallet();
  return { h, client, wallet };
}

describe('the consent page and its POST', () => {
  it("puts form-action 'self' (plus the client's redirect origin) and anti-framing in the page's CSP", async () => {
    const { h, client } = await setup();
    const page = await h.fetch(
      authorizeUrl(h.issuer, { ...client, codeChallenge: challengeOf('v'.repeat(43)) }).toString(),
    );
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("form-action 'self' https://client.example");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('signs a message naming the request: its Request ID changes with code_challenge and state', async () => {
    const { h, client, wallet } = await setup();
    const messageFor = async (codeChallenge: string, state: string) => {
      const params = Object.fromEntries(
        authorizeUrl(h.issuer, { ...client, codeChallenge, state }).searchParams,
      );
      const res = await h.fetch(`${h.issuer}/oauth/authorize/challenge`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ address: wallet.address, ...params }),
      });
      expect(res.status).toBe(200);
      return /\nRequest ID: ([A-Za-z0-9_-]{43})$/.exec(
        ((await res.json()) as { message: string }).message,
      )?.[1];
    };
    const a = await messageFor(challengeOf('a'.repeat(43)), 's1');
    expect(a).toBeDefined();
    expect(await messageFor(challengeOf('a'.repeat(43)), 's1')).toBe(a);
    expect(await messageFor(challengeOf('b'.repeat(43)), 's1')).not.toBe(a);
    expect(await messageFor(challengeOf('a'.repeat(43)), 's2')).not.toBe(a);
  });

  it('refuses a challenge without the request it is for (no code_challenge or redirect_uri)', async () => {
    const { h, client, wallet } = await setup();
    const res = await h.fetch(`${h.issuer}/oauth/authorize/challenge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: wallet.address, client_id: client.clientId, scope: 'read' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });

  it("a wallet signature for one request cannot complete another (the victim's code_challenge swapped in)", async () => {
    const { h, client, wallet } = await setup();
    const attacker = challengeOf('x'.repeat(43));
    const { response, location } = await approveWithWallet(
      h,
      wallet,
      authorizeUrl(h.issuer, { ...client, codeChallenge: challengeOf('y'.repeat(43)), state: 'st' }),
      (form) => form.set('code_challenge', attacker),
    );
    expect(response.status).toBe(400);
    expect(location).toBeNull();
    expect(await response.text()).toContain('does not match the sign-in message');
  });

  it('refuses a consent POST from another site (Origin or Sec-Fetch-Site) with 403, and takes a same-origin one', async () => {
    const { h, client, wallet } = await setup();
    const url = authorizeUrl(h.issuer, { ...client, codeChallenge: challengeOf('z'.repeat(43)) });
    const post = (headers: Record<string, string>) =>
      approveWithWallet(h, wallet, url, () => {}, headers).then((r) => r.response);

    for (const headers of [
      { origin: 'https://evil.example' } as Record<string, string>,
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: new URL(h.issuer).origin, 'sec-fetch-site': 'cross-site' },
    ]) {
      const refused = await post(headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.headers.get('location')).toBeNull();
      expect(await refused.text()).toContain('can only be submitted from its own page');
    }
    // What browsers send from the page itself: its no-referrer policy turns Origin into "null".
    for (const headers of [
      { origin: new URL(h.issuer).origin, 'sec-fetch-site': 'same-origin' } as Record<string, string>,
      { origin: 'null', 'sec-fetch-site': 'same-origin' },
      { origin: new URL(h.issuer).origin },
    ]) {
      const accepted = await post(headers);
      expect(accepted.status, JSON.stringify(headers)).toBe(303);
      expect(new URL(accepted.headers.get('location')!).searchParams.get('code')).toMatch(/^taac_/);
    }
  });
});
