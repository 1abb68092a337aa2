/**
 * What an operator watches: /metrics parsed by a Prometheus text
 * parser with its counters moving under real traffic, X-Request-Id on every answer and in every
 * log line of its request, /readyz naming the dependency that failed.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createRpcChain } from '@token-actions/adapters';
import { createServerMetrics, meterFailures } from '@token-actions/runtime';
import { Hono } from 'hono';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { readinessEndpoint } from '../../src/ops/readyz.js';
import { type Harness, startHarness } from '../support/harness.js';

const ADMIN = 'operator-token-for-observability-tests-0123';

interface Sample {
  value?: string;
  labels?: Record<string, string>;
  buckets?: Record<string, string>;
  count?: string;
  sum?: string;
}
interface Family {
  name: string;
  type: string;
  metrics: Sample[];
}

/** Metric families by name; a name that comes back in pieces (interleaved series) is joined. */
function parse(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  for (const family of parsePrometheusTextFormat(text) as Family[]) {
    const seen = families.get(family.name);
    if (seen) seen.metrics.push(...family.metrics);
    else families.set(family.name, { ...family, metrics: [...family.metrics] });
  }
  return families;
}

/** The value of the sample of `name` whose labels include `labels` (0 when there is none yet). */
function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number {
  const family = families.get(name);
  const sample = family?.metrics.find((m) =>
    Object.entries(labels).every(([key, value]) => m.labels?.[key] === value),
  );
  if (!sample) return 0;
  return Number(sample.value ?? sample.count);
}

describe('observability of the real service', () => {
  let h: Harness;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    h = await startHarness(
      {
        LOG_LEVEL: 'info',
        OAUTH_ADMIN_TOKEN: ADMIN,
        RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '2',
      },
      (level) => createLogger(level, sink),
    );
  }, 120_000);
  afterAll(async () => {
    await h?.close().catch(() => {});
  });

  let lastText = '';
  const scrape = async () => {
    const res = await fetch(`${h.baseUrl}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    lastText = await res.text();
    return parse(lastText);
  };

  it('serves /metrics to the operator token only', async () => {
    expect((await fetch(`${h.baseUrl}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${h.baseUrl}/metrics`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    const families = await scrape();
    for (const name of [
      'token_actions_http_requests_total',
      'token_actions_http_request_duration_seconds',
      'token_actions_transactions',
      'token_actions_worker_lag_seconds',
      'token_actions_rate_limit_rejections_total',
      'token_actions_webhook_deliveries_total',
      'token_actions_chain_errors_total',
      'token_actions_database_errors_total',
      'token_actions_process_cpu_seconds_total',
    ]) {
      expect(families.has(name), name).toBe(true);
    }
  });

  it('moves its counters with real traffic, labelled by route pattern, never by raw path', async () => {
    const before = await scrape();
    const account = (await h.call('POST', '/v1/api/accounts', {})).json.publicKey as string;
    expect((await h.call('GET', `/v1/api/accounts/${account}`)).status).toBe(200);
    expect((await h.call('GET', `/v1/api/accounts/${account}`)).status).toBe(200);
    expect((await h.call('GET', '/v1/api/transaction/track/not-a-signature')).status).toBe(400);
    expect(
      (await h.call('POST', `/v1/api/accounts/${account}/airdrop`, { currency: 'SOL', amount: '2' })).status,
    ).toBe(200);
    const donation = await h.call('POST', '/v1/api/donate/sol', { account, amount: '0.5', priority: 'Low' });
    expect(donation.status).toBe(200);
    expect((await fetch(`${h.baseUrl}/no/such/path`)).status).toBe(404);
    // Unauthenticated interface B calls spend the per-address budget (2 a minute), then 429.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch(`${h.baseUrl}/v1/project/swap`)).status);
    expect(statuses.slice(-2)).toEqual([429, 429]);

    const after = await scrape();
    const requests = 'token_actions_http_requests_total';
    const moved = (labels: Record<string, string>) =>
      sampleValue(after, requests, labels) - sampleValue(before, requests, labels);
    expect(moved({ method: 'POST', route: '/v1/api/accounts', status: '200' })).toBe(1);
    expect(moved({ method: 'GET', route: '/v1/api/accounts/:publicKey', status: '200' })).toBe(2);
    expect(moved({ method: 'GET', route: '/v1/api/transaction/track/:transactionId', status: '400' })).toBe(
      1,
    );
    expect(moved({ method: 'POST', route: '/v1/api/donate/sol', status: '200' })).toBe(1);
    expect(moved({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(moved({ method: 'GET', route: '/v1/project/swap', status: '429' })).toBe(2);
    // No label carries the account key or the bogus path.
    const labelValues = after.get(requests)!.metrics.flatMap((m) => Object.values(m.labels ?? {}));
    expect(labelValues.some((v) => v.includes(account) || v.includes('/no/such'))).toBe(false);

    const histogram = 'token_actions_http_request_duration_seconds';
    expect(after.get(histogram)!.type).toBe('HISTOGRAM');
    // The parser folds a histogram into one label set; read its series one by one instead.
    const series = parse(lastText.replace(`# TYPE ${histogram} histogram`, `# TYPE ${histogram} untyped`));
    const donate = { route: '/v1/api/donate/sol', status: '200' };
    const count = sampleValue(series, `${histogram}_count`, donate);
    expect(count).toBeGreaterThanOrEqual(1);
    expect(sampleValue(series, `${histogram}_bucket`, { ...donate, le: '+Inf' })).toBe(count);
    expect(sampleValue(series, `${histogram}_sum`, donate)).toBeGreaterThan(0);

    expect(
      sampleValue(after, 'token_actions_rate_limit_rejections_total', {
        route: '/v1/project/swap',
        policy: 'address',
      }) - sampleValue(before, 'token_actions_rate_limit_rejections_total', { policy: 'address' }),
    ).toBe(2);

    // The outbox gauges read the database: the donation is there, under one of the statuses.
    const total = (f: Map<string, Family>) =>
      (f.get('token_actions_transactions')?.metrics ?? []).reduce((n, m) => n + Number(m.value), 0);
    expect(total(after) - total(before)).toBe(1);
    expect(
      after
        .get('token_actions_transactions')!
        .metrics.map((m) => m.labels?.status)
        .sort(),
    ).toEqual(['confirmed', 'expired', 'failed', 'finalized', 'pending', 'processed']);
    expect(sampleValue(after, 'token_actions_worker_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('answers X-Request-Id on every answer: the caller’s when well-formed, a fresh one otherwise', async () => {
    const idOf = async (path: string, init: RequestInit = {}) =>
      (await fetch(`${h.baseUrl}${path}`, init)).headers.get('x-request-id');
    const offered = 'trace-7.b:c_d';
    for (const path of [
      '/healthz',
      '/v1/docs',
      '/no/such/path',
      '/v1/api/accounts',
      '/v1/project/swap',
      '/oauth/token',
    ]) {
      expect(await idOf(path, { headers: { 'x-request-id': offered } }), path).toBe(offered);
    }
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(await idOf('/healthz')).toMatch(uuid);
    for (const bad of ['has space', 'x'.repeat(129), 'quote"', 'semi;colon', '<script>']) {
      expect(await idOf('/healthz', { headers: { 'x-request-id': bad } }), bad).toMatch(uuid);
    }
    const a = await idOf('/healthz');
    expect(await idOf('/healthz')).not.toBe(a);
  });

  it('puts the request id in every log line written while serving the request', async () => {
    const from = lines.length;
    const res = await fetch(`${h.baseUrl}/oauth/clients`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ADMIN}`,
        'content-type': 'application/json',
        'x-request-id': 'reg-42',
      },
      body: JSON.stringify({ client_name: 'Logged', redirect_uris: ['https://logged.example/cb'] }),
    });
    expect(res.status).toBe(201);
    const written = lines.slice(from).filter((l) => l.msg === 'oauth client registered');
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ requestId: 'reg-42' });
    // An admin handler's own line carries it too.
    const issued = await fetch(`${h.baseUrl}/v1/admin/api-keys`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ADMIN}`,
        'content-type': 'application/json',
        'x-request-id': 'adm-7',
      },
      body: JSON.stringify({ label: 'logged key' }),
    });
    expect(issued.status).toBe(201);
    expect(lines.slice(from).filter((l) => l.msg === 'API key issued')).toMatchObject([
      { requestId: 'adm-7' },
    ]);
    // A background line (the worker loop) belongs to no request and carries none.
    expect(
      lines
        .filter((l) => l.requestId === undefined)
        .every((l) => l.msg !== 'oauth client registered' && l.msg !== 'API key issued'),
    ).toBe(true);
  });

  it('sends nosniff on every answer, and anti-framing on the HTML pages', async () => {
    for (const path of ['/healthz', '/v1/openapi.json', '/no/such/path', '/v1/api/accounts', '/metrics']) {
      expect((await fetch(`${h.baseUrl}${path}`)).headers.get('x-content-type-options'), path).toBe(
        'nosniff',
      );
    }
    const docs = await fetch(`${h.baseUrl}/v1/docs`);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    expect(docs.headers.get('x-frame-options')).toBe('DENY');
    expect(docs.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(docs.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('/readyz reports the database and the chain; a chain that does not answer is named, and counted', async () => {
    const ready = await fetch(`${h.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', chain: 'ok' } });

    // A real RPC chain adapter against an endpoint that answers every call with 503.
    const down = createServer((_req, res) => res.writeHead(503).end('unavailable'));
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const metrics = createServerMetrics({ processMetrics: false });
    const chain = meterFailures(
      createRpcChain({
        rpcUrl: `http://127.0.0.1:${(down.address() as AddressInfo).port}`,
        cluster: 'devnet',
        currencies: h.server.composition.deps.currencies,
      }),
      metrics.chainErrors,
    );
    const app = new Hono().get(
      '/readyz',
      readinessEndpoint({
        database: () => h.server.composition.sql.query('SELECT 1'),
        chain: async () => {
          const height = await chain.getBlockHeight();
          if (height.isErr()) throw new Error(height.error.message);
        },
      }),
    );
    const res = await app.request('/readyz');
    down.close();
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'unavailable',
      message: 'not ready: chain unreachable',
      checks: { database: 'ok', chain: 'failed' },
    });
    const counted = parse(await metrics.registry.metrics());
    expect(sampleValue(counted, 'token_actions_chain_errors_total', { operation: 'getBlockHeight' })).toBe(1);
  });

  it('/readyz answers 503 naming the database once it is gone, /healthz stays 200, and store failures are counted', async () => {
    const before = await scrape();
    await h.server.composition.sql.close();
    const res = await fetch(`${h.baseUrl}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'unavailable',
      message: 'not ready: database unreachable',
      checks: { database: 'failed', chain: 'ok' },
    });
    expect((await fetch(`${h.baseUrl}/healthz`)).status).toBe(200);
    const track = await h.call('GET', `/v1/api/transaction/track/${'1'.repeat(64)}`);
    expect(track.status).toBeGreaterThanOrEqual(500);
    // The scrape still answers without its database: the outage is what it has to show.
    const families = await scrape();
    const errors = (f: Map<string, Family>) =>
      (f.get('token_actions_database_errors_total')?.metrics ?? []).reduce((n, m) => n + Number(m.value), 0);
    expect(errors(families) - errors(before)).toBeGreaterThanOrEqual(1);
  });
});
