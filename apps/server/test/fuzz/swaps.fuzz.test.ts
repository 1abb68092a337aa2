import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { type ClientToken, obtainAccessToken, registerOAuthClient } from '../support/oauth-token.js';

/**
 * Hostile input against every interface B route, with a valid OAuth token so requests reach the
 * handlers: never a 5xx, every answer JSON with `rateLimit`, every error exactly
 * `{code, message, rateLimit}`, and nothing changes but what an accepted request changes (one
 * swap request row per accepted quote; no transaction, inbound webhook or pool-reserve change).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 1592590342);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const ADMIN = 'fuzz-admin-token-0123456789abcdef0123456789';

let h: Harness;
let token: ClientToken;

beforeAll(async () => {
  h = await startHarness({
    OAUTH_ADMIN_TOKEN: ADMIN,
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '1000000',
    WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  });
  const client = await registerOAuthClient(h.baseUrl, ADMIN);
  token = await obtainAccessToken(h.baseUrl, client);
  const chain = h.server.composition.deps.chain;
  const c = h.server.composition.deps.currencies;
  for (const [currency, amount] of [
    [c.native, 100_000_000_000n],
    [c.stable, 10_000_000_000n],
    [c.project, 10_000_000_000_000n],
  ] as const) {
    (await chain.airdrop(token.wallet.address as never, currency, amount))._unsafeUnwrap();
  }
}, 120_000);
afterAll(async () => h?.close());

const TICKERS = ['SOL', 'USDC', 'PROJ'];
const junk = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '../..',
    '%00',
    'null',
    '-',
    '--',
    'SOL--USDC',
    'sol-usdc',
    'SOL-SOL',
    'BTC-ETH',
  ),
);
const tokenPair = fc.oneof(
  fc.tuple(fc.constantFrom(...TICKERS), fc.constantFrom(...TICKERS)).map(([a, b]) => `${a}-${b}`),
  junk,
);
const amountText = fc.oneof(
  fc.constantFrom(
    '0.1',
    '1',
    '0.000001',
    '1.5',
    '0',
    '-1',
    '1e3',
    'abc',
    '',
    ' 1',
    '1.',
    '.5',
    '99999999999999999999999',
    'NaN',
    'Infinity',
  ),
  fc.bigInt({ min: 0n, max: 10n ** 22n }).map((n) => `${n / 1_000_000n}.${n % 1_000_000n}`),
  junk,
);
const anyJson = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  amountText,
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
// Header values travel as bytes 0x20-0x7e here (fetch refuses the rest before sending).
const headerJunk = junk.map((v) => v.replace(/[^\x20-\x7e]/g, ''));

const swapBody = fc.record(
  {
    tokenPair: fc.oneof(tokenPair, anyJson),
    amount: fc.oneof(amountText, anyJson),
    slippageBps: fc.oneof(fc.integer({ min: -100, max: 20_000 }), fc.double(), amountText),
    account: fc.oneof(
      fc.string({
        unit: fc.constantFrom(...'123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'),
        minLength: 30,
        maxLength: 48,
      }),
      junk,
    ),
    extra: anyJson,
  },
  { requiredKeys: [] },
);

// Mostly valid firm-quote and aggregator bodies, so accepted requests (and what they change) are covered too.
const validSwap = fc.record(
  {
    tokenPair: fc.constantFrom('SOL-USDC', 'USDC-SOL', 'PROJ-USDC', 'SOL-PROJ', 'PROJ-SOL'),
    amount: fc.constantFrom('0.01', '0.5', '1', '2.25', '0.000001'),
    slippageBps: fc.integer({ min: 0, max: 5_000 }),
  },
  { requiredKeys: ['tokenPair', 'amount'] },
);

type Req = { method: string; path: string; body?: string; headers?: Record<string, string> };

const requests: fc.Arbitrary<Req> = fc.oneof(
  fc
    .record({
      tokenPair: maybe(tokenPair),
      amount: maybe(amountText),
      page: maybe(fc.oneof(fc.integer({ min: -5, max: 1e6 }).map(String), junk)),
      pageSize: maybe(fc.oneof(fc.integer({ min: -5, max: 1000 }).map(String), junk)),
    })
    .map((q) => ({
      method: 'GET',
      path: `/v1/project/swap?${Object.entries(q)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`)
        .join('&')}`,
    })),
  fc
    .tuple(
      fc.constantFrom('/v1/project/swap', '/v1/aggregator/swap'),
      fc.oneof(
        validSwap.map((b) => JSON.stringify(b)),
        swapBody.map((b) => JSON.stringify(b)),
        junk,
      ),
    )
    .map(([path, body]) => ({ method: 'POST', path, body })),
  fc
    .record(
      {
        requestId: fc.oneof(junk, fc.uuid(), anyJson),
        signedTransaction: fc.oneof(junk, fc.base64String({ maxLength: 400 }), anyJson),
      },
      { requiredKeys: [] },
    )
    .map((b) => ({ method: 'POST', path: '/v1/swap/execute', body: JSON.stringify(b) })),
  fc
    .tuple(
      fc.oneof(
        fc
          .record({
            transactionId: fc.oneof(junk, fc.base64String({ maxLength: 90 })),
            status: fc.oneof(fc.constantFrom('finalized', 'failed', 'confirmed'), junk),
            slot: maybe(anyJson),
            error: maybe(anyJson),
          })
          .map((b) => JSON.stringify(b)),
        fc.array(fc.object({ maxDepth: 1 }), { maxLength: 3 }).map((a) => JSON.stringify(a)),
        junk,
      ),
      fc.record(
        {
          'webhook-id': headerJunk,
          'webhook-timestamp': fc.oneof(fc.integer({ min: 0, max: 2e9 }).map(String), headerJunk),
          'webhook-signature': fc.oneof(
            headerJunk,
            fc.base64String({ maxLength: 60 }).map((s) => `v1,${s}`),
          ),
        },
        { requiredKeys: [] },
      ),
    )
    .map(([body, headers]) => ({
      method: 'POST',
      path: '/v1/webhooks/transaction-complete',
      body,
      headers: headers as Record<string, string>,
    })),
);

async function counts() {
  const sql = h.server.composition.sql;
  const one = async (q: string) => Number((await sql.query<{ n: string }>(q)).rows[0]!.n);
  return {
    swapRequests: await one('SELECT count(*) AS n FROM swap_requests'),
    transactions: await one('SELECT count(*) AS n FROM transactions'),
    inboundWebhooks: await one('SELECT count(*) AS n FROM webhook_inbound'),
    reserves: (
      await sql.query<{ r: string }>(
        "SELECT string_agg(id || ':' || reserve_a || ':' || reserve_b, ',' ORDER BY id) AS r FROM pools",
      )
    ).rows[0]!.r,
  };
}

describe('interface B under hostile input', () => {
  it('never a 5xx, always {code, message, rateLimit} on errors, and no state change beyond accepted quotes', async () => {
    const before = await counts();
    const violations = new Map<string, string>();
    const statuses = new Map<number, number>();
    let acceptedQuotes = 0;
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(requests, async (req) => {
        sent++;
        const res = await fetch(`${h.baseUrl}${req.path}`, {
          method: req.method,
          headers: {
            authorization: `Bearer ${token.accessToken}`,
            'content-type': 'application/json',
            ...(req.headers ?? {}),
          },
          ...(req.body !== undefined ? { body: req.body } : {}),
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const text = await res.text();
        const note = (what: string) => {
          if (!violations.has(what))
            violations.set(
              what,
              `${req.method} ${req.path.slice(0, 120)} ${(req.body ?? '').slice(0, 120)} -> ${res.status} ${text.slice(0, 160)}`,
            );
        };
        if (res.status >= 500) note(`${res.status} answer`);
        let body: any;
        try {
          body = JSON.parse(text);
        } catch {
          note('non-JSON answer');
          return;
        }
        const rl = body?.rateLimit;
        if (typeof rl?.limit !== 'number' || typeof rl?.remaining !== 'number')
          note('no rateLimit {limit, remaining}');
        if (res.status >= 400) {
          const keys = Object.keys(body).sort().join(',');
          if (
            keys !== 'code,message,rateLimit' ||
            typeof body.code !== 'string' ||
            typeof body.message !== 'string'
          )
            note(`error body keys ${keys}`);
          if (text.includes(token.accessToken)) note('token echoed');
        } else if (
          req.method === 'POST' &&
          (req.path === '/v1/project/swap' || req.path === '/v1/aggregator/swap')
        ) {
          acceptedQuotes++;
        }
      }),
      { seed: SEED, numRuns: 2_000 * SCALE },
    );
    const after = await counts();
    console.info(
      `[fuzz] interface B: seed=${SEED}, ${sent} requests; answers ${[...statuses]
        .sort()
        .map(([s, n]) => `${s}x${n}`)
        .join(' ')}; ` + `${acceptedQuotes} accepted quotes`,
    );
    expect([...violations].map(([k, v]) => `${k}: ${v}`)).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(2_000);
    expect(after.swapRequests - before.swapRequests).toBe(acceptedQuotes);
    expect(after.transactions).toBe(before.transactions);
    expect(after.inboundWebhooks).toBe(before.inboundWebhooks);
    expect(after.reserves).toBe(before.reserves);
  }, 300_000);
});
