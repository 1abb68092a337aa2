// Interface B measures: the quote (a read) and the firm-quote prepare, with an OAuth access token.
import { log } from './cli.mjs';
import { cannon, json, lamportsToSol, noteStatus, round, summary } from './load.mjs';
import { runTsx } from './processes.mjs';

/**
 * An interface B client of its own: registered with the admin token, its access token obtained the
 * way a client does, and its wallet funded through interface A's localnet airdrop (the wallet pays
 * a swap's input). Answers the headers its requests carry.
 */
async function newSwapClient(baseUrl, apiKey, adminToken) {
  const token = await runTsx('oauth-token.ts', [baseUrl, adminToken]);
  await json(baseUrl, apiKey, 'POST', `/v1/api/accounts/${token.wallet}/airdrop`, {
    currency: 'SOL',
    amount: '1000',
  });
  return {
    token,
    headers: { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' },
  };
}

/**
 * The two swap measures, with a client of their own; `newClient()` makes another (the open-quotes
 * measure holds its quotes under one, so they do not count against the prepare measure's client).
 */
export async function prepareSwaps({ baseUrl, apiKey, adminToken }) {
  const exists = (await fetch(`${baseUrl}/v1/project/swap?tokenPair=SOL-USDC&amount=1`)).status !== 404;
  let client;
  let tokenError;
  if (exists) {
    try {
      client = await newSwapClient(baseUrl, apiKey, adminToken);
    } catch (error) {
      tokenError = String(error.message ?? error)
        .split('\n')[0]
        .slice(0, 200);
    }
  }
  const token = client?.token;
  const bHeaders = client?.headers;
  const measures = [
    ['swap-quote', 'bare-hono', { url: `${baseUrl}/v1/project/swap?tokenPair=SOL-USDC&amount=1.5` }],
    [
      'swap-prepare',
      'raw-litesvm',
      {
        url: baseUrl,
        requests: [
          {
            method: 'POST',
            path: '/v1/project/swap',
            setupRequest: (req) => {
              swapN++;
              // Distinct amounts from 0.001 SOL up (smaller ones would quote zero USDC out): every
              // prepare is a fresh firm quote, and a fresh transaction.
              return {
                ...req,
                body: JSON.stringify({
                  tokenPair: 'SOL-USDC',
                  amount: lamportsToSol(1_000_000 + swapN),
                }),
              };
            },
            onResponse: (status, body) => noteStatus('swap-prepare', status, body),
          },
        ],
      },
    ],
  ];
  let swapN = 0;
  const newClient = () => newSwapClient(baseUrl, apiKey, adminToken);
  return { measures, bHeaders, exists, token, tokenError, newClient };
}

/**
 * Runs the swap measure named `only`, or records why it could not be measured. Measured in the
 * order of the issue: the quote before the donation run, the prepare after it (each prepare is a
 * firm quote that stays pending: measured last so it cannot slow the others).
 */
export async function measureSwaps({ results, meta, phase }, swapSetup, only) {
  if (!swapSetup) return;
  const { measures, bHeaders, exists, token, tokenError } = swapSetup;
  for (const [name, ceilingName, opts] of measures.filter(([n]) => n === only)) {
    const ceiling = results[ceilingName].reqPerSec;
    if (!exists || !token) {
      const reason = !exists
        ? 'not built yet (the route answers 404)'
        : `not measured: no OAuth access token (${tokenError})`;
      results[name] = {
        reqPerSec: null,
        p50Ms: null,
        p99Ms: null,
        ceilingReqPerSec: ceiling,
        ratio: null,
        skipped: reason,
      };
      log(`${name}: skipped, ${reason}`);
      continue;
    }
    const probe = await fetch(opts.url + (opts.requests ? '/v1/project/swap' : ''), {
      method: opts.requests ? 'POST' : 'GET',
      headers: bHeaders,
      ...(opts.requests ? { body: JSON.stringify({ tokenPair: 'SOL-USDC', amount: '0.5' }) } : {}),
    });
    if (probe.status !== 200) {
      const reason = `not measured: a single call answered ${probe.status} ${(await probe.text()).slice(0, 160)}`;
      results[name] = {
        reqPerSec: null,
        p50Ms: null,
        p99Ms: null,
        ceilingReqPerSec: ceiling,
        ratio: null,
        skipped: reason,
      };
      log(`${name}: skipped, ${reason}`);
      continue;
    }
    const r = summary(await phase(name, () => cannon({ ...opts, headers: bHeaders })));
    results[name] = {
      reqPerSec: r.reqPerSec,
      p50Ms: r.p50Ms,
      p99Ms: r.p99Ms,
      ceilingReqPerSec: ceiling,
      ratio: r.reqPerSec / ceiling,
    };
    meta[name] = r;
    if (r.non2xx > 0 || r.errors > 0)
      meta.notes.push(`${name}: ${r.non2xx} non-2xx answers, ${r.errors} errors/timeouts`);
    log(`${name}: ${round(r.reqPerSec, 0)} req/s, p99 ${r.p99Ms} ms (${r.non2xx} non-2xx)`);
  }
}
