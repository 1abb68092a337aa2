/**
 * Hostile requests over HTTP: duplicate JSON keys, NFT uri schemes, firm quotes for another
 * wallet or beyond the per-client cap, and SSRF targets refused at webhook registration.
 */
import { connect } from 'node:net';
import { encodeBase58, type PublicKey } from '@token-actions/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { type ClientToken, obtainAccessToken, registerOAuthClient } from '../support/oauth-token.js';

const ADMIN = 'operator-token-for-hardening-tests-0123456';

let h: Harness;
let token: ClientToken;
let account: string;

beforeAll(async () => {
  h = await startHarness({
    OAUTH_ADMIN_TOKEN: ADMIN,
    SWAP_MAX_OPEN_QUOTES_PER_CLIENT: '2',
    RATE_LIMIT_PER_MINUTE: '100000',
  });
  account = (await h.call('POST', '/v1/api/accounts', {})).json.publicKey;
  await h.call('POST', `/v1/api/accounts/${account}/airdrop`, { currency: 'SOL', amount: '100' });
  token = await obtainAccessToken(h.baseUrl, await registerOAuthClient(h.baseUrl, ADMIN));
  const c = h.server.composition.deps.currencies;
  await h.server.composition.deps.chain.airdrop(token.wallet.address as PublicKey, c.native, 10_000_000_000n);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const solBalance = async (publicKey: string) =>
  (await h.call('GET', `/v1/api/accounts/${publicKey}`)).json.balances.find(
    (b: { currency: string }) => b.currency === 'SOL',
  ).baseUnits as string;

const b = async (method: string, path: string, body?: string) => {
  const res = await fetch(`${h.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body } : {}),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};

describe('duplicate JSON object keys answer 400', () => {
  it('interface A: {"amount":"50","amount":"0.000001"} does not donate, escaped or nested twins neither', async () => {
    const before = await solBalance(account);
    const bodies = [
      `{"account":"${account}","amount":"50","amount":"0.000001","priority":"Low"}`,
      `{"account":"${account}","amount":"50","am\\u006funt":"0.000001","priority":"Low"}`,
      `{"account":"${account}","account":"${account}","amount":"0.000001","priority":"Low"}`,
    ];
    for (const body of bodies) {
      const res = await h.call('POST', '/v1/api/donate/sol', body, {
        'idempotency-key': `dup-${Math.random()}`,
      });
      expect(res.status, body).toBe(400);
      expect(res.json.message).toMatch(
        /^invalid request: the key "(amount|account)" appears twice in one JSON object$/,
      );
    }
    const nested = await h.call(
      'POST',
      '/v1/api/transaction/preview',
      `{"type":"mint","account":"${account}","details":{"name":"A","name":"B","symbol":"S","uri":"https://a.example/1"}}`,
    );
    expect(nested.status).toBe(400);
    expect(nested.json.message).toContain('"name" appears twice');
    expect(await solBalance(account)).toBe(before);
    // The same keys in sibling objects are not twins, and the request goes through.
    const fine = await h.call('POST', '/v1/api/donate/sol', { account, amount: '0.000001', priority: 'Low' });
    expect(fine.status).toBe(200);
  });

  it('interface B: a firm quote body with a key twice answers 400 INVALID_INPUT with rateLimit', async () => {
    const res = await b('POST', '/v1/project/swap', '{"tokenPair":"SOL-USDC","amount":"0.1","amount":"100"}');
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      code: 'INVALID_INPUT',
      message: 'invalid request: the key "amount" appears twice in one JSON object',
      rateLimit: { limit: 100000 },
    });
  });
});

/** A body sent in chunks, without Content-Length: the limit has to count it as it streams. */
const chunked = (text: string, chunkSize = 4096) => {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + chunkSize));
      at += chunkSize;
    },
  });
};

const send = async (path: string, bearer: string, body: string | ReadableStream<Uint8Array>) => {
  const res = await fetch(`${h.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body,
    ...(typeof body === 'string' ? {} : { duplex: 'half' }),
  } as RequestInit);
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: JSON.parse(text) as Record<string, unknown> };
};

describe('request bodies over MAX_BODY_BYTES (64 KiB) answer 413', () => {
  const oversized = JSON.stringify({ tokenPair: 'SOL-USDC', amount: '0.1', pad: 'x'.repeat(70_000) });

  it('interface B: 413 INVALID_INPUT with rateLimit, announced by Content-Length or sent in chunks', async () => {
    for (const body of [oversized, chunked(oversized)]) {
      const res = await send('/v1/project/swap', token.accessToken, body);
      expect(res.status).toBe(413);
      expect(res.json).toEqual({
        code: 'INVALID_INPUT',
        message: 'request body exceeds 65536 bytes',
        rateLimit: expect.objectContaining({ limit: 100000 }),
      });
      expect(res.headers.get('ratelimit')).toMatch(/^"client";r=\d+;t=\d+$/);
    }
  });

  it('interface B: a completion notification may be up to 256 KiB, and no more', async () => {
    // A signature the chain never saw: received, and reported unknown.
    const signature = encodeBase58(crypto.getRandomValues(new Uint8Array(64)));
    const batch = (pad: number) => JSON.stringify([{ signature, pad: 'x'.repeat(pad) }]);
    const large = await send('/v1/webhooks/transaction-complete', token.accessToken, batch(100_000));
    expect(large.status).toBe(200);
    expect(large.json).toMatchObject({
      received: true,
      results: [{ transactionId: signature, status: 'unknown' }],
    });
    const over = await send('/v1/webhooks/transaction-complete', token.accessToken, batch(262_144));
    expect(over.status).toBe(413);
    expect(over.json).toMatchObject({ code: 'INVALID_INPUT', message: 'request body exceeds 262144 bytes' });
  });

  it('interface B: a request without a valid token is refused 401 before its body is looked at', async () => {
    const res = await send('/v1/project/swap', 'not-a-token', oversized);
    expect(res.status).toBe(401);
  });

  it('interface A: a chunked body over the limit is refused; one under it is read and served', async () => {
    const before = await solBalance(account);
    const big = JSON.stringify({ account, amount: '0.000001', priority: 'Low', pad: 'x'.repeat(70_000) });
    const refused = await send('/v1/api/donate/sol', h.apiKey, chunked(big));
    expect(refused.status).toBe(413);
    expect(refused.json).toEqual({ message: 'request body exceeds 65536 bytes', code: 'INVALID_INPUT' });
    expect(await solBalance(account)).toBe(before);
    const small = JSON.stringify({ account, amount: '0.000002', priority: 'Low' });
    const served = await send('/v1/api/donate/sol', h.apiKey, chunked(small, 7));
    expect(served.status).toBe(200);
    expect(served.json.transactionId).toEqual(expect.any(String));
    expect(BigInt(await solBalance(account))).toBeLessThanOrEqual(BigInt(before) - 2000n);
  });
});

describe('NFT metadata uri', () => {
  it.each([
    'javascript:alert(1)',
    'data:text/html,<b>x</b>',
    'file:///etc/passwd',
    'http://example.org/x.json',
  ])('refuses %s with 400', async (uri) => {
    const res = await h.call('POST', '/v1/api/mint', { name: 'X', symbol: 'X', uri });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('uri must use one of https: ipfs: ar:');
  });
});

describe('firm quotes', () => {
  it("refuses a quote for a wallet that is not the token's (403 ACCOUNT_NOT_CALLER)", async () => {
    const res = await b(
      'POST',
      '/v1/project/swap',
      JSON.stringify({ tokenPair: 'SOL-USDC', amount: '0.1', account }),
    );
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ code: 'ACCOUNT_NOT_CALLER' });
  });

  it('holds one client to SWAP_MAX_OPEN_QUOTES_PER_CLIENT unexecuted quotes (429 RESERVATION_LIMIT)', async () => {
    const quote = () =>
      b('POST', '/v1/project/swap', JSON.stringify({ tokenPair: 'SOL-USDC', amount: '0.1' }));
    const answers = await Promise.all([quote(), quote(), quote(), quote()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429, 429]);
    expect(answers.find((a) => a.status === 429)!.json).toMatchObject({
      code: 'RESERVATION_LIMIT',
      message: 'this client already holds 2 unexecuted firm quotes; execute them or let them expire first',
    });
  });
});

describe('SSRF: webhook URLs refused at registration', () => {
  it.each([
    'http://127.0.0.1:6379/',
    'http://[::1]:5432/',
    'http://localhost:8080/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fd00:ec2::254]/',
    'https://10.0.0.1/hook',
    'https://192.168.0.10/hook',
    'https://100.64.0.1/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://0.0.0.0/hook',
  ])('refuses %s', async (webhookUrl) => {
    const res = await fetch(`${h.baseUrl}/oauth/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Probe',
        redirect_uris: ['https://probe.example/cb'],
        webhook_url: webhookUrl,
      }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_client_metadata');
    expect(body.error_description).toMatch(
      /resolves to an? (loopback|private|link-local|cloud metadata|unique-local|carrier-grade NAT|unspecified)/,
    );
  });

  it('answers a request the adapter cannot parse (Host "a@b") 400 with the JSON error, not a 500', async () => {
    const { hostname, port } = new URL(h.baseUrl);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write('GET /healthz HTTP/1.1\r\nHost: a@b\r\nConnection: close\r\n\r\n');
      });
      let data = '';
      socket.on('data', (d) => (data += d));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toContain('"message":"invalid request: the request target or Host header cannot be parsed"');
  });
});
