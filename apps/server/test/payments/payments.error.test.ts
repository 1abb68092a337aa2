import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

/** Every listed bad input answers 400 with a message naming the problem; never a 5xx. */
describe('interface A rejects bad input with 400 and a useful message', () => {
  let h: Harness;
  let sender: string;
  const validKey = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

  beforeAll(async () => {
    h = await startHarness({ PREVIEW_TTL_MS: '1000' });
    sender = (await h.call('POST', '/v1/api/accounts', {})).json.publicKey;
    await h.call('POST', `/v1/api/accounts/${sender}/airdrop`, { currency: 'SOL', amount: '5' });
    await h.call('POST', `/v1/api/accounts/${sender}/airdrop`, { currency: 'USDC', amount: '100' });
  }, 60_000);
  afterAll(async () => h?.close());

  const donate = (body: unknown) => h.call('POST', '/v1/api/donate/sol', body);

  it.each([
    [
      'bad public key',
      { account: 'not-a-key!', amount: '1', priority: 'Low' },
      /account is not valid base58/,
    ],
    [
      'short public key',
      { account: '11111111', amount: '1', priority: 'Low' },
      /account must decode to 32 bytes/,
    ],
    ['amount "abc"', { amount: 'abc' }, /amount "abc" is not a decimal number/],
    ['amount "-1"', { amount: '-1' }, /amount must be positive/],
    ['amount "0"', { amount: '0' }, /amount must be greater than zero/],
    ['amount "1e3"', { amount: '1e3' }, /exponent notation/],
    ['too many decimals', { amount: '0.0000000001' }, /10 decimal places; SOL allows at most 9/],
    ['amount over u64', { amount: '18446744074' }, /u64/],
    ['unknown priority', { priority: 'Urgent' }, /priority must be one of Min, Low, Medium, High, VeryHigh/],
    ['missing field', { amount: undefined }, /amount is required/],
    ['wrong JSON type', { amount: 1.5 }, /amount must be a string, got number/],
    ['unknown field', { memo: 'x' }, /unknown field "memo"/],
    ['unmanaged sender', { account: validKey }, /not an account managed by this service/],
  ])('donate: %s', async (_name, patch, message) => {
    const body = { account: sender, amount: '1', priority: 'Low', ...patch };
    const res = await donate(body);
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(message);
  });

  it('unknown currency in a body and in a path', async () => {
    const charity = await h.call('POST', '/v1/api/charity/donate', {
      charity: validKey,
      amount: '1',
      currency: 'BTC',
    });
    expect(charity.status).toBe(400);
    expect(charity.json.message).toMatch(/currency "BTC" is not supported; use one of SOL, USDC, PROJ/);
    const path = await h.call('POST', '/v1/api/donate/btc', {
      account: sender,
      amount: '1',
      priority: 'Low',
    });
    expect(path.status).toBe(400);
    expect(path.json.message).toMatch(/unknown currency "btc"/);
    // Deeper paths and the bare prefix are missing pages, not currencies; so is a GET.
    for (const [method, url] of [
      ['POST', '/v1/api/donate/btc/x'],
      ['POST', '/v1/api/donate'],
      ['GET', '/v1/api/donate/btc'],
    ] as const) {
      const missing = await h.call(method, url, method === 'POST' ? {} : undefined);
      expect(missing.status, `${method} ${url}`).toBe(404);
      expect(missing.json.message).toBe(`no route for ${method} ${url}`);
    }
    // Without an API key the key is what is wrong, whatever the currency.
    const anonymous = await fetch(`${h.baseUrl}/v1/api/donate/btc`, { method: 'POST', body: '{}' });
    expect(anonymous.status).toBe(401);
  });

  it('every route compiles into the RegExpRouter, not the slower trie it falls back to', async () => {
    // Hono's SmartRouter keeps the first router that accepts every route. One route the RegExpRouter
    // cannot compile (a `:param` beside static paths of the same method) sends every request of
    // every route through the trie: a slower match and more garbage per request.
    expect((await h.call('GET', '/healthz')).status).toBe(200);
    expect(h.server.routerName()).toBe('SmartRouter + RegExpRouter');
  });

  it('insufficient funds is a 400 that says so, and nothing is recorded', async () => {
    const res = await h.call('POST', '/v1/api/donate/usdc', {
      account: sender,
      amount: '100000',
      priority: 'Low',
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/holds 100 USDC, 100000 needed/);
    const sol = await h.call('POST', '/v1/api/donate/sol', {
      account: sender,
      amount: '100000',
      priority: 'Low',
    });
    expect(sol.status).toBe(400);
    expect(sol.json.message).toMatch(/insufficient lamports/);
  });

  it('malformed JSON, wrong content type, a JSON array body and an oversized body', async () => {
    const malformed = await h.call('POST', '/v1/api/donate/sol', '{"account":');
    expect(malformed.status).toBe(400);
    expect(malformed.json.message).toMatch(/invalid request/i);
    const text = await h.call('POST', '/v1/api/donate/sol', 'account=x', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    const array = await h.call('POST', '/v1/api/donate/sol', '[]');
    expect(array.status).toBe(400);
    expect(array.json.message).toMatch(/must be an object/);
    const big = await h.call('POST', '/v1/api/mint', {
      name: 'x'.repeat(200_000),
      symbol: 'A',
      uri: 'https://a',
    });
    expect(big.status).toBe(413);
  });

  it('mint: limits on name, symbol and uri', async () => {
    const cases: Array<[object, RegExp]> = [
      [{ name: '', symbol: 'A', uri: 'https://a/1' }, /name must not be empty/],
      [{ name: 'n'.repeat(33), symbol: 'A', uri: 'https://a/1' }, /name must be at most 32 bytes/],
      [{ name: 'n', symbol: 'S'.repeat(11), uri: 'https://a/1' }, /symbol must be at most 10 bytes/],
      [{ name: 'n', symbol: 'S', uri: 'not a uri' }, /uri must be an absolute URI/],
      [{ name: 'n', symbol: 'S' }, /uri is required/],
      [{ name: 'n', symbol: 'S', uri: 'https://a/1', owner: 'zzz' }, /owner/],
    ];
    for (const [body, message] of cases) {
      const res = await h.call('POST', '/v1/api/mint', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.message).toMatch(message);
    }
  });

  it('charity and merchant: bad keys, escrow flag type, paying oneself', async () => {
    const bad = await h.call('POST', '/v1/api/merchant/payment', {
      merchant: 'abc',
      amount: '1',
      currency: 'USDC',
    });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/merchant/);
    const flag = await h.call('POST', '/v1/api/charity/donate', {
      charity: validKey,
      amount: '1',
      currency: 'USDC',
      useEscrow: 'yes',
    });
    expect(flag.status).toBe(400);
    expect(flag.json.message).toMatch(/useEscrow must be a boolean/);
    const self = await h.call('POST', '/v1/api/merchant/payment', {
      merchant: sender,
      account: sender,
      amount: '1',
      currency: 'USDC',
    });
    expect(self.status).toBe(400);
    expect(self.json.message).toMatch(/must differ/);
  });

  describe('preview and sign', () => {
    const details = { currency: 'USDC', amount: '1', priority: 'Low' };
    const previewOf = async () =>
      (
        await h.call('POST', '/v1/api/transaction/preview', {
          account: sender,
          transactionType: 'donation',
          details,
        })
      ).json.preview as string;

    it('rejects an unknown transaction type and non-object details', async () => {
      const type = await h.call('POST', '/v1/api/transaction/preview', {
        account: sender,
        transactionType: 'loan',
        details,
      });
      expect(type.status).toBe(400);
      expect(type.json.message).toMatch(
        /transactionType must be one of donation, charity_donation, merchant_payment, mint/,
      );
      const det = await h.call('POST', '/v1/api/transaction/preview', {
        account: sender,
        transactionType: 'donation',
        details: 'x',
      });
      expect(det.status).toBe(400);
      expect(det.json.message).toMatch(/details must be/);
    });

    it('rejects a tampered preview', async () => {
      const preview = await previewOf();
      const [v, payload, mac] = preview.split('.');
      const flipped = `${v}.${payload!.slice(0, -2)}${payload!.endsWith('A') ? 'B' : 'A'}${payload!.slice(-1)}.${mac}`;
      for (const bad of [
        flipped,
        `${v}.${payload}.${mac!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
        'garbage',
        '',
      ]) {
        const res = await h.call('POST', '/v1/api/transaction/sign', {
          account: sender,
          transactionType: 'donation',
          details,
          preview: bad,
        });
        expect(res.status).toBe(400);
        expect(res.json.message).toMatch(/preview is malformed or has been tampered with/);
      }
    });

    it('rejects a preview used for different details', async () => {
      const preview = await previewOf();
      const res = await h.call('POST', '/v1/api/transaction/sign', {
        account: sender,
        transactionType: 'donation',
        details: { ...details, amount: '100' },
        preview,
      });
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(/preview does not match this request/);
    });

    it('rejects an expired preview', async () => {
      const preview = await previewOf();
      await new Promise((r) => setTimeout(r, 1_100));
      const res = await h.call('POST', '/v1/api/transaction/sign', {
        account: sender,
        transactionType: 'donation',
        details,
        preview,
      });
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(/preview has expired/);
    });
  });

  describe('track', () => {
    it.each([
      ['not base58', 'abc!def', /not valid base58/],
      ['a public key, not a signature', validKey, /must decode to 64 bytes, got 32/],
      ['too long', '1'.repeat(200), /not valid base58|64 bytes/],
    ])('malformed id: %s', async (_n, id, message) => {
      const res = await h.call('GET', `/v1/api/transaction/track/${encodeURIComponent(id)}`);
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(message);
    });

    it('an unknown well-formed id is a 404', async () => {
      const res = await h.call('GET', `/v1/api/transaction/track/${'5'.repeat(87)}`);
      expect([400, 404]).toContain(res.status);
      if (res.status === 404) expect(res.json.message).toMatch(/not known/);
    });
  });

  it('escrow routes: bad and unknown ids', async () => {
    expect((await h.call('GET', '/v1/api/escrows/nope')).status).toBe(400);
    const unknown = await h.call('POST', '/v1/api/escrows/esc_doesnotexist/release');
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toMatch(/does not exist/);
  });

  it('accounts: bad key and airdrop of an unknown currency', async () => {
    expect((await h.call('GET', '/v1/api/accounts/xyz')).status).toBe(400);
    const res = await h.call('POST', `/v1/api/accounts/${sender}/airdrop`, { currency: 'DOGE', amount: '1' });
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/not supported/);
  });
});
