import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type PublicKey, toBase64, WRAPPED_SOL_MINT } from '@token-actions/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJupiterAggregator } from '../../src/aggregator/index.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const USER = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' as PublicKey;

/** A quote exactly as Jupiter documents it (GET /swap/v1/quote). */
const QUOTE = {
  inputMint: WRAPPED_SOL_MINT,
  inAmount: '1000000000',
  outputMint: USDC,
  outAmount: '149401047',
  otherAmountThreshold: '148654041',
  swapMode: 'ExactIn',
  slippageBps: 50,
  platformFee: null,
  priceImpactPct: '0.000996',
  routePlan: [
    {
      swapInfo: {
        ammKey: '5BUwFW4nRbftYTDMbgxykoFWqWHPzahFSNAaaaJtVKsq',
        label: 'Meteora DLMM',
        inputMint: WRAPPED_SOL_MINT,
        outputMint: USDC,
        inAmount: '1000000000',
        outAmount: '149401047',
        feeAmount: '3000000',
        feeMint: WRAPPED_SOL_MINT,
      },
      percent: 100,
      bps: 10000,
    },
  ],
  contextSlot: 299283763,
  timeTaken: 0.0123,
};

// A v0 transaction with one signer slot (zeroed): 0x01 | 64 zero bytes | 0x80 header(1,0,1) | 2 keys | ...
const TX = new Uint8Array([
  1,
  ...new Array(64).fill(0),
  0x80,
  1,
  0,
  1,
  2,
  ...new Array(64).fill(7),
  ...new Array(32).fill(1),
  0,
  0,
  0,
]);

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

describe('Jupiter aggregator adapter against a local server speaking Jupiter’s shapes', () => {
  let server: Server;
  let base: string;
  let handler: Handler = () => {};
  const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        handler(req, body, res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/swap/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const jupiter = (apiKey?: string) =>
    createJupiterAggregator({ baseUrl: base, fetch, ...(apiKey ? { apiKey } : {}), timeoutMs: 2_000 });

  it('GET /quote with Jupiter’s query parameters, read into base-unit bigints, raw kept for /swap', async () => {
    handler = (_req, _body, res) => json(res, 200, QUOTE);
    const q = (
      await jupiter('key-123').quote({
        inputMint: WRAPPED_SOL_MINT,
        outputMint: USDC,
        amount: 1_000_000_000n,
        slippageBps: 50,
      })
    )._unsafeUnwrap();
    const url = new URL(seen.at(-1)!.url, 'http://x');
    expect(url.pathname).toBe('/swap/v1/quote');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      inputMint: WRAPPED_SOL_MINT,
      outputMint: USDC,
      amount: '1000000000',
      slippageBps: '50',
      swapMode: 'ExactIn',
    });
    expect(seen.at(-1)!.headers['x-api-key']).toBe('key-123');
    expect(q).toMatchObject({
      inAmount: 1_000_000_000n,
      outAmount: 149_401_047n,
      otherAmountThreshold: 148_654_041n,
      priceImpactPct: '0.000996',
    });
    expect(q.routePlan[0]!.swapInfo).toMatchObject({ label: 'Meteora DLMM', feeAmount: 3_000_000n });
    expect(q.raw).toEqual(QUOTE);
  });

  it('POST /swap with userPublicKey and the untouched quoteResponse; decodes swapTransaction', async () => {
    handler = (_req, _body, res) =>
      json(res, 200, {
        swapTransaction: toBase64(TX),
        lastValidBlockHeight: 279632475,
        prioritizationFeeLamports: 9999,
        computeUnitLimit: 388876,
      });
    handler = (_r, _b, res) => json(res, 200, QUOTE);
    const q = (
      await jupiter().quote({
        inputMint: WRAPPED_SOL_MINT,
        outputMint: USDC,
        amount: 1n,
        slippageBps: 50,
      })
    )._unsafeUnwrap();
    handler = (_req, _body, res) =>
      json(res, 200, {
        swapTransaction: toBase64(TX),
        lastValidBlockHeight: 279632475,
        prioritizationFeeLamports: 9999,
        computeUnitLimit: 388876,
      });
    const s = (
      await jupiter().swap({ quote: q, userPublicKey: USER, requestId: 'swp_1', clientId: 'c' })
    )._unsafeUnwrap();
    const sent = JSON.parse(seen.at(-1)!.body);
    expect(seen.at(-1)!.method).toBe('POST');
    expect(sent).toMatchObject({ userPublicKey: USER, quoteResponse: QUOTE, wrapAndUnwrapSol: true });
    expect(s).toMatchObject({
      lastValidBlockHeight: 279632475n,
      prioritizationFeeLamports: 9999n,
      computeUnitLimit: 388876,
      recorded: false,
    });
    expect([...s.swapTransaction]).toEqual([...TX]);
  });

  it.each([
    [
      400,
      { error: 'Could not find any route', errorCode: 'COULD_NOT_FIND_ANY_ROUTE' },
      'AGGREGATOR_NO_ROUTE',
    ],
    [400, { error: 'No routes found', errorCode: 'NO_ROUTES_FOUND' }, 'AGGREGATOR_NO_ROUTE'],
    [400, { error: 'The token is not tradable', errorCode: 'TOKEN_NOT_TRADABLE' }, 'AGGREGATOR_NO_ROUTE'],
    [
      400,
      { error: 'Circular arbitrage is disabled', errorCode: 'CIRCULAR_ARBITRAGE_IS_DISABLED' },
      'AGGREGATOR_NO_ROUTE',
    ],
    [
      400,
      { error: 'Cannot compute other amount threshold', errorCode: 'CANNOT_COMPUTE_OTHER_AMOUNT_THRESHOLD' },
      'INVALID_INPUT',
    ],
    [400, { error: 'Query parameter amount cannot be parsed' }, 'INVALID_INPUT'],
    [429, { message: 'Too many requests' }, 'AGGREGATOR_UNAVAILABLE'],
    [
      500,
      { error: 'Failed to get swap and account metas', errorCode: 'FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS' },
      'AGGREGATOR_UNAVAILABLE',
    ],
    [502, '<html>bad gateway</html>', 'AGGREGATOR_UNAVAILABLE'],
  ])('maps HTTP %i %j to %s', async (status, body, code) => {
    handler = (_req, _body, res) => {
      if (typeof body !== 'string') return json(res, status, body);
      res.writeHead(status);
      res.end(body);
    };
    const e = (
      await jupiter().quote({ inputMint: WRAPPED_SOL_MINT, outputMint: USDC, amount: 5n, slippageBps: 50 })
    )._unsafeUnwrapErr();
    expect(e.code).toBe(code);
    if (typeof body === 'object' && 'errorCode' in body) expect(e.message).toContain(body.errorCode);
  });

  it('treats an unreadable 200 and an unreachable server as AGGREGATOR_UNAVAILABLE', async () => {
    handler = (_req, _body, res) => json(res, 200, { inputMint: 'x' });
    expect(
      (
        await jupiter().quote({ inputMint: 'a', outputMint: 'b', amount: 1n, slippageBps: 1 })
      )._unsafeUnwrapErr().code,
    ).toBe('AGGREGATOR_UNAVAILABLE');
    const dead = createJupiterAggregator({ baseUrl: 'http://127.0.0.1:9/swap/v1', fetch, timeoutMs: 1_000 });
    expect(
      (await dead.quote({ inputMint: 'a', outputMint: 'b', amount: 1n, slippageBps: 1 }))._unsafeUnwrapErr()
        .code,
    ).toBe('AGGREGATOR_UNAVAILABLE');
  });
});
