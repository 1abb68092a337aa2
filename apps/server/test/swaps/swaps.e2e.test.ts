/**
 * The swaps over HTTP against the real service (LiteSVM localnet + PGlite), with an
 * OAuth token obtained through oauth4webapi and a wallet that signs its own transactions.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStandardWebhook } from '@token-actions/adapters';
import {
  assembleTransaction,
  type ChainPort,
  type Currencies,
  encodeBase58,
  fromBase64,
  messageSigners,
  type PublicKey,
  type Signature,
  splitWireTransaction,
  toBase64,
} from '@token-actions/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestWallet } from '../fixtures/oauth-harness.js';
import { type Harness, startHarness } from '../support/harness.js';
import { type ClientToken, obtainAccessToken, registerOAuthClient } from '../support/oauth-token.js';

const ADMIN = 'admin-token-for-swap-tests-0123456789';
const WEBHOOK_SECRET = `whsec_${Buffer.from('inbound notifications secret, tests').toString('base64')}`;

interface Delivery {
  id: string;
  timestamp: string;
  body: string;
  verified: boolean;
  at: number;
}

let h: Harness;
let token: ClientToken;
let chain: ChainPort & { tick(slots?: number): void; currencies: Currencies };
let receiver: Server;
const deliveries: Delivery[] = [];
let clientSecret = '';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function b(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return h.call(method, path, body, { authorization: `Bearer ${token.accessToken}`, ...headers });
}

const balance = async (who: string, code: string) =>
  (await chain.getBalance(who as PublicKey, chain.currencies.byCode(code)!))._unsafeUnwrap();

/** What a wallet does with the returned transaction: sign the message into its own slot. */
async function sign(wallet: TestWallet, base64: string): Promise<string> {
  const parts = splitWireTransaction(fromBase64(base64)!)!;
  const signers = messageSigners(parts.message)!.map((k) => encodeBase58(k));
  const sigs = [...parts.signatures];
  sigs[signers.indexOf(wallet.address)] = await wallet.sign(parts.message);
  return toBase64(assembleTransaction(parts.message, sigs));
}

async function trackUntil(id: string, statuses: string[], timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await h.call('GET', `/v1/api/transaction/track/${id}`);
    if (statuses.includes(r.json.status) || Date.now() > until) return r.json;
    await sleep(100);
  }
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out');
    await sleep(100);
  }
}

const pool = async (pair: string) => (await b('GET', `/v1/project/swap?tokenPair=${pair}`)).json.pool;

beforeAll(async () => {
  // A receiver that fails the first 3 attempts of every delivery, then accepts.
  const attempts = new Map<string, number>();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      const timestamp = String(req.headers['webhook-timestamp']);
      const verified = createStandardWebhook(clientSecret).verify(body, {
        'webhook-id': id,
        'webhook-timestamp': timestamp,
        'webhook-signature': String(req.headers['webhook-signature']),
      }).ok;
      deliveries.push({ id, timestamp, body, verified, at: Date.now() });
      const n = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, n);
      res.writeHead(n <= 3 ? 500 : 204);
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  h = await startHarness({
    SLOT_INTERVAL_MS: '100',
    FINALITY_DEPTH_SLOTS: '4',
    WORKER_INTERVAL_MS: '100',
    OAUTH_ADMIN_TOKEN: ADMIN,
    RATE_LIMIT_PER_MINUTE: '100000',
    WEBHOOK_SECRET,
    WEBHOOK_RETRY_BASE_MS: '200',
    // The receiver listens on 127.0.0.1, which the SSRF guard refuses without this.
    WEBHOOK_ALLOW_PRIVATE: 'true',
    // The concurrency test races 100 firm quotes from one client; the per-client cap is tested on its own.
    SWAP_MAX_OPEN_QUOTES_PER_CLIENT: '1000',
    // A small SOL-USDC pool for the concurrency run; a direct SOL-PROJ pool that prices PROJ at
    // half the USDC route, so the aggregator's best PROJ -> SOL route is two hops.
    POOL_NATIVE_STABLE_SEED: '20:3000',
    POOL_NATIVE_PROJECT_SEED: '1000:2000000',
    POOL_STABLE_PROJECT_SEED: '150000:1000000',
  });
  const { deps, localnet } = h.server.composition;
  chain = { ...deps.chain, tick: (slots) => localnet!.tick(slots), currencies: deps.currencies };
  const client = await registerOAuthClient(h.baseUrl, ADMIN, { webhookUrl: hookUrl });
  token = await obtainAccessToken(h.baseUrl, client);
  clientSecret = (await b('GET', '/v1/webhooks/secret')).json.secret;
  const c = chain.currencies;
  for (const [currency, amount] of [
    [c.native, 200_000_000_000n],
    [c.stable, 1_000_000_000n],
    [c.project, 5_000_000_000_000n],
  ] as const) {
    (await chain.airdrop(token.wallet.address as PublicKey, currency, amount))._unsafeUnwrap();
  }
}, 120_000);

afterAll(async () => {
  await h?.close();
  await new Promise<void>((r) => receiver?.close(() => r()));
});

describe('quote, prepare, sign, execute, track to finalized over HTTP with an OAuth token', () => {
  it('project pool: balances of user and pool change exactly as quoted', async () => {
    const info = await b('GET', '/v1/project/swap?tokenPair=USDC-SOL&amount=15');
    expect(info.status).toBe(200);
    expect(info.json).toMatchObject({
      tokenPair: 'USDC-SOL',
      pool: { id: 'SOL-USDC', feeBps: 30 },
      page: 1,
      pageSize: 20,
    });
    expect(info.json.rateLimit).toMatchObject({ limit: 100000 });
    const vault = info.json.pool.vault as string;

    const firm = await b('POST', '/v1/project/swap', {
      tokenPair: 'USDC-SOL',
      amount: '15',
      slippageBps: 100,
    });
    expect(firm.status).toBe(200);
    const q = firm.json.quote;
    expect(q).toMatchObject({
      inputToken: 'USDC',
      outputToken: 'SOL',
      inAmount: '15000000',
      inAmountDecimal: '15',
      slippageBps: 100,
    });
    expect(q.outAmount).toBe(info.json.quote.outAmount);
    expect(BigInt(q.minOutAmount)).toBe((BigInt(q.outAmount) * 9_900n) / 10_000n);

    const before = {
      userUsdc: await balance(token.wallet.address, 'USDC'),
      userSol: await balance(token.wallet.address, 'SOL'),
      poolUsdc: await balance(vault, 'USDC'),
      poolSol: await balance(vault, 'SOL'),
    };
    const signed = await sign(token.wallet, firm.json.transaction);
    const exec = await b('POST', '/v1/swap/execute', {
      requestId: firm.json.requestId,
      signedTransaction: signed,
    });
    expect(exec.status).toBe(200);
    expect(exec.json.transactionId).toBe(firm.json.transactionId);
    const tracked = await trackUntil(exec.json.transactionId, ['finalized', 'failed']);
    expect(tracked).toMatchObject({ status: 'finalized', kind: 'swap' });
    const out = BigInt(q.outAmount);
    expect(await balance(token.wallet.address, 'USDC')).toBe(before.userUsdc - 15_000_000n);
    expect(await balance(token.wallet.address, 'SOL')).toBe(before.userSol + out);
    expect(await balance(vault, 'USDC')).toBe(before.poolUsdc + 15_000_000n);
    expect(await balance(vault, 'SOL')).toBe(before.poolSol - out - BigInt(tracked.feeLamports));

    const settled = await waitFor(async () => {
      const r = (await b('GET', '/v1/project/swap?tokenPair=SOL-USDC')).json;
      return r.swaps.find(
        (s: { requestId: string; status: string }) =>
          s.requestId === firm.json.requestId && s.status === 'landed',
      )
        ? r
        : undefined;
    });
    expect(settled.pool.reservedOut).toBe('0');
    expect(BigInt(settled.pool.reserveIn)).toBe(20_000_000_000n - out);
  });

  it('aggregator (local adapter): PROJ -> USDC -> SOL in one transaction, exact balances', async () => {
    const agg = await b('POST', '/v1/aggregator/swap', { tokenPair: 'PROJ-SOL', amount: '1000' });
    expect(agg.status).toBe(200);
    expect(agg.json.provider).toBe('local');
    expect(agg.json.quote.route.map((r: { pool: string }) => r.pool)).toEqual(['USDC-PROJ', 'SOL-USDC']);
    expect(agg.json.quote.routePlan[0].swapInfo).toMatchObject({
      ammKey: 'USDC-PROJ',
      inAmount: '1000000000000',
    });
    const [hop1, hop2] = agg.json.quote.route;
    const usdcProj = (await pool('USDC-PROJ')).vault as string;
    const solUsdc = (await pool('SOL-USDC')).vault as string;
    const before = {
      proj: await balance(token.wallet.address, 'PROJ'),
      sol: await balance(token.wallet.address, 'SOL'),
      v1proj: await balance(usdcProj, 'PROJ'),
      v1usdc: await balance(usdcProj, 'USDC'),
      v2usdc: await balance(solUsdc, 'USDC'),
      v2sol: await balance(solUsdc, 'SOL'),
    };
    const exec = await b('POST', '/v1/swap/execute', {
      requestId: agg.json.requestId,
      signedTransaction: await sign(token.wallet, agg.json.transaction),
    });
    expect(exec.status).toBe(200);
    const tracked = await trackUntil(exec.json.transactionId, ['finalized', 'failed']);
    expect(tracked.status).toBe('finalized');
    const fee = BigInt(tracked.feeLamports);
    expect(await balance(token.wallet.address, 'PROJ')).toBe(before.proj - 1_000_000_000_000n);
    expect(await balance(token.wallet.address, 'SOL')).toBe(before.sol + BigInt(hop2.outAmount) - fee);
    expect(await balance(usdcProj, 'PROJ')).toBe(before.v1proj + 1_000_000_000_000n);
    expect(await balance(usdcProj, 'USDC')).toBe(before.v1usdc - BigInt(hop1.outAmount));
    expect(await balance(solUsdc, 'USDC')).toBe(before.v2usdc + BigInt(hop1.outAmount));
    expect(await balance(solUsdc, 'SOL')).toBe(before.v2sol - BigInt(hop2.outAmount));
  });
});

describe('100 simultaneous firm quotes against a small pool', () => {
  it('honours every one that lands, never lets the vault fall below what is reserved, lands none twice', async () => {
    // Earlier tests' swaps settle into the book at finalized: start once nothing is reserved in
    // either direction (a USDC -> SOL hop reserves SOL), so the baseline does not move under this test.
    // The two directions are two reads: a settlement that commits between them releases the reverse
    // side and moves the reserves, so both reads must also show the same reserves.
    const startBook = await waitFor(async () => {
      const [p, reverse] = [await pool('SOL-USDC'), await pool('USDC-SOL')];
      const oneState = p.reserveIn === reverse.reserveOut && p.reserveOut === reverse.reserveIn;
      return oneState && p.reservedOut === '0' && reverse.reservedOut === '0' ? p : undefined;
    });
    const vault = startBook.vault as string;
    const quotes = await Promise.all(
      Array.from({ length: 100 }, () =>
        b('POST', '/v1/project/swap', { tokenPair: 'SOL-USDC', amount: '0.1' }),
      ),
    );
    const ok = quotes.filter((r) => r.status === 200).map((r) => r.json);
    const refused = quotes.filter((r) => r.status !== 200);
    expect(
      refused
        .filter((r) => r.status !== 422 || r.json.code !== 'INSUFFICIENT_LIQUIDITY')
        .map((r) => [r.status, r.json]),
    ).toEqual([]);
    expect(ok.length).toBeGreaterThanOrEqual(90);
    const promised = ok.reduce((s, q) => s + BigInt(q.quote.outAmount), 0n);
    const book = await pool('SOL-USDC');
    expect(BigInt(book.reservedOut)).toBe(BigInt(startBook.reservedOut) + promised);
    expect(BigInt(book.reservedOut)).toBeLessThanOrEqual(BigInt(book.reserveOut));
    expect(await balance(vault, 'USDC')).toBeGreaterThanOrEqual(BigInt(book.reservedOut));
    // Later quotes price on what earlier ones left free: each promise is no better than the last.
    const outs = ok.map((q) => BigInt(q.quote.outAmount)).sort((a, c) => (a > c ? -1 : 1));
    expect(outs[outs.length - 1]!).toBeLessThan(outs[0]!);

    const userUsdc = await balance(token.wallet.address, 'USDC');
    const vaultUsdc = await balance(vault, 'USDC');
    // Every quote is executed twice at once: one transaction each, whatever the race.
    const signed = await Promise.all(
      ok.map(async (q) => ({ q, tx: await sign(token.wallet, q.transaction) })),
    );
    const execs = await Promise.all(
      signed.flatMap(({ q, tx }) =>
        [1, 2].map(() => b('POST', '/v1/swap/execute', { requestId: q.requestId, signedTransaction: tx })),
      ),
    );
    expect(execs.filter((e) => e.status !== 200).map((e) => [e.status, e.json])).toEqual([]);
    for (let i = 0; i < ok.length; i++) {
      expect(execs[2 * i]!.json.transactionId).toBe(ok[i]!.transactionId);
      expect(execs[2 * i + 1]!.json.transactionId).toBe(ok[i]!.transactionId);
    }
    expect(new Set(ok.map((q) => q.transactionId)).size).toBe(ok.length);
    // While they land, the vault always covers what is still owed (promised but not yet paid).
    let owed = promised;
    for (;;) {
      const statuses = (await chain.getStatuses(ok.map((q) => q.transactionId as Signature)))._unsafeUnwrap();
      const landed = ok.filter((_, i) => statuses[i] && !statuses[i]!.error);
      owed = promised - landed.reduce((s, q) => s + BigInt(q.quote.outAmount), 0n);
      expect(await balance(vault, 'USDC')).toBeGreaterThanOrEqual(owed);
      if (statuses.every((s) => s?.commitment === 'finalized')) break;
      await sleep(100);
    }
    expect(await balance(token.wallet.address, 'USDC')).toBe(userUsdc + promised);
    expect(await balance(vault, 'USDC')).toBe(vaultUsdc - promised);
    const end = await waitFor(async () => {
      const p = await pool('SOL-USDC');
      return p.reservedOut === '0' ? p : undefined;
    });
    expect(BigInt(end.reserveOut)).toBe(BigInt(startBook.reserveOut) - promised);
    console.info(
      `${quotes.length} concurrent quotes, ${ok.length} accepted, ${refused.length} refused; ` +
        `promised ${promised} USDC units (${outs[0]}..${outs[outs.length - 1]} each) of ${startBook.reserveOut}; ` +
        `${execs.length} executes -> ${new Set(execs.map((e) => e.json.transactionId)).size} transactions; book after: ${end.reserveOut}`,
    );
    const history = (await b('GET', '/v1/project/swap?tokenPair=SOL-USDC&page=1&pageSize=100')).json;
    expect(history.total).toBeGreaterThanOrEqual(ok.length);
    expect(history.swaps).toHaveLength(100);
    // The same history in pages of 40 by cursor (keyset), then page 2 by number: the same swaps.
    const p1 = await b('GET', '/v1/project/swap?tokenPair=SOL-USDC&pageSize=40');
    expect(p1.json).toMatchObject({ page: 1, pageSize: 40, total: history.total });
    const p2 = await b('GET', `/v1/project/swap?tokenPair=SOL-USDC&pageSize=40&cursor=${p1.json.nextCursor}`);
    expect(p2.status).toBe(200);
    expect(p2.json.page).toBe(2);
    const byNumber = await b('GET', '/v1/project/swap?tokenPair=SOL-USDC&pageSize=40&page=2');
    const requestIds = (page: { swaps: { requestId: string }[] }) => page.swaps.map((x) => x.requestId);
    expect(requestIds(p2.json)).toEqual(requestIds(byNumber.json));
    expect([...requestIds(p1.json), ...requestIds(p2.json)]).toEqual(requestIds(history).slice(0, 80));
    const bad = await b('GET', '/v1/project/swap?tokenPair=SOL-USDC&cursor=1.%27%20OR%201%3D1');
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({ code: 'INVALID_PARAMETERS' });
  });
});

describe('expired quotes and tampered transactions are refused, nothing is sent', () => {
  it('refuses a quote whose blockhash has passed with 409', async () => {
    const firm = (await b('POST', '/v1/project/swap', { tokenPair: 'SOL-USDC', amount: '0.01' })).json;
    const signed = await sign(token.wallet, firm.transaction);
    chain.tick(200);
    const exec = await b('POST', '/v1/swap/execute', {
      requestId: firm.requestId,
      signedTransaction: signed,
    });
    expect(exec.status).toBe(409);
    expect(exec.json).toMatchObject({ code: 'QUOTE_EXPIRED', rateLimit: { limit: 100000 } });
    expect((await chain.getStatuses([firm.transactionId]))._unsafeUnwrap()[0]).toBeNull();
    expect((await h.call('GET', `/v1/api/transaction/track/${firm.transactionId}`)).status).toBe(404);
  });

  it('refuses a tampered message or signature with 400, sends nothing, and still lands the genuine one', async () => {
    const firm = (await b('POST', '/v1/project/swap', { tokenPair: 'SOL-USDC', amount: '0.01' })).json;
    const signed = fromBase64(await sign(token.wallet, firm.transaction))!;
    const tamperedMessage = new Uint8Array(signed);
    tamperedMessage[tamperedMessage.length - 5] = tamperedMessage[tamperedMessage.length - 5]! ^ 0xff; // inside the last transfer's data: the amount
    const r1 = await b('POST', '/v1/swap/execute', {
      requestId: firm.requestId,
      signedTransaction: toBase64(tamperedMessage),
    });
    expect(r1.status).toBe(400);
    expect(r1.json).toMatchObject({
      code: 'TRANSACTION_MISMATCH',
      message: 'transaction differs from the prepared one',
    });
    const forged = new Uint8Array(signed);
    forged[1 + 64 + 10] = forged[1 + 64 + 10]! ^ 0x01; // the wallet's signature slot
    const r2 = await b('POST', '/v1/swap/execute', {
      requestId: firm.requestId,
      signedTransaction: toBase64(forged),
    });
    expect(r2.status).toBe(400);
    expect(r2.json.code).toBe('INVALID_SIGNATURE');
    const r3 = await b('POST', '/v1/swap/execute', {
      requestId: firm.requestId,
      signedTransaction: 'not base64!',
    });
    expect(r3.status).toBe(400);
    await sleep(500);
    expect((await chain.getStatuses([firm.transactionId]))._unsafeUnwrap()[0]).toBeNull();
    const good = await b('POST', '/v1/swap/execute', {
      requestId: firm.requestId,
      signedTransaction: toBase64(signed),
    });
    expect(good.status).toBe(200);
    expect((await trackUntil(firm.transactionId, ['finalized'])).status).toBe('finalized');
  });
});

describe('the completion webhook', () => {
  const hook = createStandardWebhook(WEBHOOK_SECRET);
  const post = (body: string, headers: Record<string, string>) =>
    fetch(`${h.baseUrl}/v1/webhooks/transaction-complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    }).then(async (r) => ({ status: r.status, json: (await r.json()) as any }));

  it('rejects a bad signature (401), missing headers (400) and a stale timestamp (401); ignores a duplicate id', async () => {
    const body = JSON.stringify({
      transactionId: encodeBase58(new Uint8Array(64).fill(3)),
      status: 'finalized',
    });
    const good = hook.sign('wh_dup_1', new Date(), body);
    const bad = { ...good, 'webhook-signature': good['webhook-signature']!.replace(/.{4}=$/, 'AAAA=') };
    expect((await post(body, bad)).status).toBe(401);
    expect((await post(`${body} `, good)).status).toBe(401);
    expect((await post(body, {})).status).toBe(400);
    const stale = hook.sign('wh_stale', new Date(Date.now() - 10 * 60_000), body);
    const staleRes = await post(body, stale);
    expect(staleRes.status).toBe(401);
    expect(staleRes.json).toMatchObject({ code: 'WEBHOOK_SIGNATURE_INVALID', rateLimit: expect.any(Object) });
    const first = await post(body, good);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      received: true,
      duplicate: false,
      results: [{ status: 'unknown', claimed: 'finalized' }],
    });
    const again = await post(body, good);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ received: true, duplicate: true, results: [] });
    const invalid = JSON.stringify({ transactionId: 'nope', status: 'finalized' });
    expect((await post(invalid, hook.sign('wh_invalid', new Date(), invalid))).status).toBe(400);
  });

  it('a lying "finalized" for a transaction that failed changes nothing', async () => {
    // Two quotes each spending all the wallet's remaining USDC: the second lands failed.
    const usdc = await balance(token.wallet.address, 'USDC');
    const amount = (Number(usdc) / 1e6).toFixed(6);
    const a = (await b('POST', '/v1/project/swap', { tokenPair: 'USDC-SOL', amount })).json;
    const c = (await b('POST', '/v1/project/swap', { tokenPair: 'USDC-SOL', amount })).json;
    for (const q of [a, c]) {
      expect(
        (
          await b('POST', '/v1/swap/execute', {
            requestId: q.requestId,
            signedTransaction: await sign(token.wallet, q.transaction),
          })
        ).status,
      ).toBe(200);
    }
    expect((await trackUntil(c.transactionId, ['failed'])).status).toBe('failed');
    const lie = JSON.stringify({ transactionId: c.transactionId, status: 'finalized', slot: 1 });
    const res = await post(lie, hook.sign('wh_lie', new Date(), lie));
    expect(res.status).toBe(200);
    expect(res.json.results[0]).toMatchObject({
      transactionId: c.transactionId,
      claimed: 'finalized',
      status: 'failed',
      swapStatus: 'failed',
    });
    expect((await h.call('GET', `/v1/api/transaction/track/${c.transactionId}`)).json.status).toBe('failed');
    // The Helius enhanced-transaction shape is read too.
    const helius = JSON.stringify([
      {
        signature: a.transactionId,
        slot: 5,
        timestamp: 1,
        type: 'TRANSFER',
        transactionError: null,
        nativeTransfers: [],
        tokenTransfers: [],
      },
    ]);
    const hr = await post(helius, hook.sign('wh_helius', new Date(), helius));
    expect(hr.status).toBe(200);
    expect(hr.json.results[0]).toMatchObject({ transactionId: a.transactionId, claimed: 'finalized' });
  });
});

describe('outbound notifications survive a receiver that fails the first 3 attempts', () => {
  it('delivers each terminal swap signed, with the same webhook-id and growing delays, on the 4th attempt', async () => {
    const delivered = await waitFor(async () => {
      const ids = [...new Set(deliveries.map((d) => d.id))];
      const done = ids.find((id) => deliveries.filter((d) => d.id === id).length >= 4);
      return done;
    }, 30_000);
    const attempts = deliveries.filter((d) => d.id === delivered);
    expect(attempts).toHaveLength(4);
    expect(attempts.every((d) => d.verified)).toBe(true);
    const payload = JSON.parse(attempts[0]!.body);
    expect(payload).toMatchObject({
      type: expect.stringMatching(/^swap\.(landed|failed|expired)$/),
      data: { requestId: expect.any(String) },
    });
    const gaps = attempts.slice(1).map((d, i) => d.at - attempts[i]!.at);
    expect(gaps[0]!).toBeGreaterThanOrEqual(90);
    expect(gaps[2]!).toBeGreaterThan(gaps[0]!);
    expect(attempts.map((d) => d.body)).toEqual(Array(4).fill(attempts[0]!.body));
    console.info(
      `outbound notifications: ${attempts.length} attempts of ${delivered}, gaps ${gaps.join(', ')} ms, statuses 500,500,500,204`,
    );
  }, 40_000);
});
