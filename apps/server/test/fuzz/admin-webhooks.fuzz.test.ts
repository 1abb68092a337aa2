import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOf } from '../admin/support.js';
import { type Harness, startHarness } from '../support/harness.js';
import {
  anyJson,
  anyMethod,
  type BodySpec,
  contentTypeAny,
  deepJson,
  encodeBody,
  hostileString,
  malformedJson,
  pathMutation,
  pathSegment,
  pctEncode,
  toJson,
} from './arbitraries.js';
import { checkAnswer, checkErrorBody, clip, describeRequest } from './checks.js';
import { FUZZ_SEED } from './context.js';
import { createTransport, type FuzzRequest, type FuzzResponse, type Transport } from './http.js';
import { Findings } from './runner.js';

/**
 * Hostile input against the operator's API (`/v1/admin/*`) and the interface A webhook endpoint
 * routes (`/v1/api/webhooks`), on the real service over HTTP. Properties: never a 5xx; admin
 * errors exactly `{code, message}`, interface A errors exactly `{message, code}`; no operator token or
 * API key in an answer; without the operator token nothing in the admin API answers but 401/413
 * and nothing changes; another tenant's endpoint is never readable or deletable; and no URL whose
 * host is internal is ever registered, however it is written.
 */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const BATCH = 10;
const RUNS = {
  admin: Math.round(80 * SCALE),
  unauthorised: Math.round(30 * SCALE),
  webhooks: Math.round(60 * SCALE),
  ssrf: Math.round(30 * SCALE),
};
const ADMIN = 'fuzz-admin-token-0123456789abcdefghij';
const PUBLIC_URL = 'https://93.184.215.14/hooks';
const ADMIN_ERRORS = [200, 201, 400, 401, 404, 409, 413, 415];
const A_ERRORS = [200, 400, 401, 404, 409, 413, 415];

interface Generated {
  readonly req: FuzzRequest;
  readonly route: string;
  /** The path was not bent out of the route's shape (so its sub-app answers). */
  readonly exact: boolean;
  readonly authorised: boolean;
}

const octet = fc.integer({ min: 0, max: 255 });
/** Internal hosts, written every way a URL parser accepts them. */
const internalHost: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(octet, octet, octet).map(([a, b, c]) => `127.${a}.${b}.${c}`),
  fc.tuple(octet, octet, octet).map(([a, b, c]) => `10.${a}.${b}.${c}`),
  fc.tuple(fc.integer({ min: 16, max: 31 }), octet, octet).map(([a, b, c]) => `172.${a}.${b}.${c}`),
  fc.tuple(octet, octet).map(([a, b]) => `192.168.${a}.${b}`),
  fc.tuple(octet, octet).map(([a, b]) => `169.254.${a}.${b}`),
  fc.tuple(fc.integer({ min: 64, max: 127 }), octet, octet).map(([a, b, c]) => `100.${a}.${b}.${c}`),
  fc.constantFrom(
    'localhost',
    'LOCALHOST',
    'localhost.',
    '2130706433',
    '0x7f000001',
    '0177.0.0.1',
    '127.1',
    '0x7f.1',
    '0',
    '0.0.0.0',
    '[::1]',
    '[::]',
    '[0:0:0:0:0:0:0:1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[::ffff:169.254.169.254]',
    '[fe80::1]',
    '[fc00::1]',
    '[fd12:3456:789a::1]',
    '[fd00:ec2::254]',
    '169.254.169.254',
    '100.100.100.200',
    '93.184.215.14@127.0.0.1',
  ),
);
const internalUrl: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('http', 'https', 'HTTP'),
    internalHost,
    fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
    fc.constantFrom('/', '/hook', '/latest/meta-data/', '', '#@93.184.215.14/'),
  )
  .map(([scheme, host, port, path]) => `${scheme}://${host}${port ? `:${port}` : ''}${path}`);

describe('admin API and interface A webhook routes under hostile input', () => {
  let h: Harness;
  let http: Transport;
  let keyA: string;
  let keyB: string;
  /** Tenant A's endpoint; the operator's fuzzing may delete it, so each property registers its own. */
  let endpointA: string;
  const secrets: string[] = [];
  const processErrors: string[] = [];
  const onError = (error: unknown) => processErrors.push(String((error as Error)?.stack ?? error));

  beforeAll(async () => {
    process.on('uncaughtException', onError);
    process.on('unhandledRejection', onError);
    h = await startHarness({ ADMIN_TOKEN: ADMIN });
    const admin = adminOf(h);
    keyA = (await admin.createKey('fuzz a', 'fuzz-a')).apiKey;
    keyB = (await admin.createKey('fuzz b', 'fuzz-b')).apiKey;
    const created = await admin.call('POST', '/v1/admin/webhooks', { tenant: 'fuzz-a', url: PUBLIC_URL });
    if (created.status !== 201) throw new Error(`fuzz setup: ${created.status} ${created.text}`);
    endpointA = created.json.id;
    secrets.push(ADMIN, keyA, keyB, h.apiKey, created.json.secret);
    http = createTransport(h.baseUrl);
    console.info(`[fuzz] admin and webhooks: seed=${FUZZ_SEED} (set FUZZ_SEED to replay), scale=${SCALE}`);
  }, 120_000);

  afterAll(async () => {
    process.off('uncaughtException', onError);
    process.off('unhandledRejection', onError);
    http?.close();
    await h?.close();
  });

  const counts = async () => {
    const r = await h.server.composition.sql.query<{ what: string; n: string }>(
      `SELECT 'api_keys' AS what, count(*)::text AS n FROM api_keys
       UNION ALL SELECT 'revoked', count(*)::text FROM api_keys WHERE revoked_at IS NOT NULL OR expires_at IS NOT NULL
       UNION ALL SELECT 'tenants', count(*)::text FROM tenants
       UNION ALL SELECT 'treasury', count(*)::text FROM tenants WHERE treasury_payments
       UNION ALL SELECT 'webhook_endpoints', count(*)::text FROM webhook_endpoints`,
    );
    return Object.fromEntries(r.rows.map((row) => [row.what, row.n]));
  };

  const fieldValue = (valid: fc.Arbitrary<unknown>) =>
    fc.oneof(
      { weight: 3, arbitrary: valid },
      { weight: 2, arbitrary: hostileString },
      { weight: 1, arbitrary: anyJson },
    );
  const body = (fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<BodySpec> =>
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record(fields, { requiredKeys: [] }).map((value) => ({ kind: 'json', value }) as const),
      },
      { weight: 1, arbitrary: fc.constant({ kind: 'none' } as const) },
      { weight: 1, arbitrary: malformedJson },
      { weight: 1, arbitrary: deepJson.map((value) => ({ kind: 'json', value }) as const) },
      { weight: 1, arbitrary: anyJson.map((value) => ({ kind: 'json', value }) as const) },
    );

  function request(
    route: string,
    method: fc.Arbitrary<string>,
    path: fc.Arbitrary<string>,
    bodySpec: fc.Arbitrary<BodySpec>,
    auth: fc.Arbitrary<{ header?: string; authorised: boolean }>,
  ): fc.Arbitrary<Generated> {
    return fc
      .record({
        method: fc.oneof({ weight: 5, arbitrary: method }, { weight: 1, arbitrary: anyMethod }),
        path,
        mutate: fc.option(pathMutation, { freq: 6, nil: undefined }),
        body: bodySpec,
        auth,
        type: fc.oneof(
          { weight: 6, arbitrary: fc.constant('application/json') },
          { weight: 1, arbitrary: contentTypeAny },
        ),
      })
      .map(({ method, path, mutate, body: b, auth: a, type }) => {
        const payload = method === 'GET' || method === 'HEAD' ? undefined : encodeBody(b);
        // Node refuses header sections over 16 KiB (431, before the app): the protocol suite covers that.
        const target = (mutate ? mutate(path) : path).slice(0, 4_000);
        return {
          route,
          exact: !mutate,
          authorised: a.authorised,
          req: {
            method,
            path: target,
            headers: {
              ...(a.header !== undefined ? { authorization: a.header } : {}),
              ...(payload !== undefined ? { 'content-type': type } : {}),
            },
            ...(payload !== undefined ? { body: payload } : {}),
          },
        };
      });
  }

  const adminAuth = fc.oneof(
    { weight: 6, arbitrary: fc.constant({ header: `Bearer ${ADMIN}`, authorised: true }) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          undefined,
          '',
          'Bearer',
          `Bearer ${ADMIN}x`,
          `Bearer ${ADMIN.slice(0, -1)}`,
          `Basic ${ADMIN}`,
          ADMIN,
        )
        .map((header) => ({ ...(header !== undefined ? { header } : {}), authorised: false })),
    },
    { weight: 1, arbitrary: fc.constant(0).map(() => ({ header: `Bearer ${keyA}`, authorised: false })) },
  );

  const adminRequest = (auth: typeof adminAuth) => {
    const id = fc.oneof(
      fc.constant(endpointA),
      fc.constantFrom('default', 'fuzz-a', 'fuzz-b', 'key_nope'),
      pathSegment(hostileString),
    );
    const tenantQuery = fc.option(
      fieldValue(fc.constantFrom('fuzz-a', 'fuzz-b', 'default', 'nobody')).map(
        (t) => `?tenant=${pctEncode(typeof t === 'string' ? t : toJson(t))}`,
      ),
      { nil: '' },
    );
    const fields = {
      label: fieldValue(fc.constantFrom('fuzz', 'x'.repeat(64), 'x'.repeat(65))),
      tenant: fieldValue(fc.constantFrom('fuzz-a', 'fuzz-b', 'fuzz-new', 'default', 'Bad Tenant')),
      url: fieldValue(fc.oneof(fc.constant(PUBLIC_URL), internalUrl)),
      description: fieldValue(fc.constantFrom('orders', '')),
      treasuryPayments: fieldValue(fc.boolean()),
      overlapSeconds: fieldValue(fc.integer({ min: -10, max: 3_000_000 })),
    };
    return fc.oneof(
      request(
        'admin api-keys',
        fc.constantFrom('GET', 'POST'),
        tenantQuery.map((q) => `/v1/admin/api-keys${q}`),
        body(fields),
        auth,
      ),
      request(
        'admin api-key',
        fc.constantFrom('GET', 'DELETE'),
        id.map((i) => `/v1/admin/api-keys/${i}`),
        body(fields),
        auth,
      ),
      request(
        'admin rotate',
        fc.constant('POST'),
        id.map((i) => `/v1/admin/api-keys/${i}/rotate`),
        body(fields),
        auth,
      ),
      request('admin tenants', fc.constant('GET'), fc.constant('/v1/admin/tenants'), body(fields), auth),
      request(
        'admin tenant',
        fc.constantFrom('GET', 'PATCH'),
        id.map((i) => `/v1/admin/tenants/${i}`),
        body(fields),
        auth,
      ),
      request(
        'admin webhooks',
        fc.constantFrom('GET', 'POST'),
        tenantQuery.map((q) => `/v1/admin/webhooks${q}`),
        body(fields),
        auth,
      ),
      request(
        'admin webhook',
        fc.constant('DELETE'),
        fc.tuple(id, tenantQuery).map(([i, q]) => `/v1/admin/webhooks/${i}${q}`),
        body(fields),
        auth,
      ),
    );
  };

  async function send(
    batch: readonly Generated[],
    findings: Findings,
    check: (g: Generated, res: FuzzResponse) => string[],
  ) {
    await Promise.all(
      batch.map(async (g) => {
        let res: FuzzResponse;
        try {
          res = await http.send(g.req);
        } catch (error) {
          findings.add(`${g.route}: no answer (${(error as Error).message})`, describeRequest(g.req));
          return;
        }
        findings.countStatus(g.route, res.status);
        for (const problem of check(g, res)) {
          findings.add(
            `${g.route}: ${problem}`,
            `${describeRequest(g.req)} -> ${res.status} ${clip(res.text, 120)}`,
          );
        }
      }),
    );
  }

  const report = (name: string, findings: Findings) => {
    console.info(`[fuzz] ${name}: answers by route and status\n${findings.statusTable()}`);
    expect(findings.report(), `${name}: violations (seed ${FUZZ_SEED})`).toEqual([]);
    expect(processErrors, 'uncaught errors in the server process').toEqual([]);
  };

  /** Admin answers: `{code, message}` errors on its own paths; bent paths may land in the root's `{message, code}`. */
  const adminCheck = (g: Generated, res: FuzzResponse): string[] => {
    const problems = checkAnswer('admin', g.req, res, {
      secrets: [ADMIN, keyA, keyB, h.apiKey],
      statuses: ADMIN_ERRORS,
    }).filter((p) => g.exact || !p.startsWith('error body is not exactly'));
    if (!g.exact && res.status >= 400 && res.status < 500 && g.req.method !== 'HEAD') {
      const type = String(res.headers['content-type'] ?? '');
      const asAdmin = checkErrorBody('admin', type, res.text);
      const asA = checkErrorBody('A', type, res.text);
      if (asAdmin.length > 0 && asA.length > 0) problems.push(asAdmin[0]!);
    }
    return problems;
  };

  it('admin API, any request: never a 5xx, errors exactly {code, message}, no token or key in an answer', async () => {
    const findings = new Findings();
    await fc.assert(
      fc.asyncProperty(fc.array(adminRequest(adminAuth), { minLength: BATCH, maxLength: BATCH }), (batch) =>
        send(batch, findings, adminCheck),
      ),
      { seed: FUZZ_SEED + 10, numRuns: RUNS.admin, endOnFailure: true },
    );
    report('admin', findings);
  }, 240_000);

  it('admin API without the operator token: only 401 (or 413 for an oversized body), and nothing changes', async () => {
    const findings = new Findings();
    const refused = adminAuth.filter((a) => !a.authorised);
    await fc.assert(
      fc.asyncProperty(
        fc.array(adminRequest(refused), { minLength: BATCH, maxLength: BATCH }),
        async (batch) => {
          const before = await counts();
          await send(batch, findings, (g, res) => {
            const problems = adminCheck(g, res);
            if (g.exact && res.status !== 401 && res.status !== 413)
              problems.push(`answered ${res.status} without the operator token`);
            return problems;
          });
          const after = await counts();
          if (JSON.stringify(before) !== JSON.stringify(after)) {
            findings.add(
              'state changed without the operator token',
              `${JSON.stringify(before)} -> ${JSON.stringify(after)}`,
            );
          }
        },
      ),
      { seed: FUZZ_SEED + 11, numRuns: RUNS.unauthorised, endOnFailure: true },
    );
    report('admin unauthorised', findings);
  }, 240_000);

  it("webhook routes, any request: never a 5xx, errors exactly {message, code}, and another tenant's endpoint never answers", async () => {
    const findings = new Findings();
    const own = await http.send({
      method: 'POST',
      path: '/v1/api/webhooks',
      headers: { authorization: `Bearer ${keyA}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${PUBLIC_URL}/isolation` }),
    });
    expect(own.status).toBe(200);
    endpointA = JSON.parse(own.text).id;
    secrets.push(JSON.parse(own.text).secret);
    const asTenant = fc.constantFrom(
      { header: `Bearer ${keyA}`, authorised: true },
      { header: `Bearer ${keyB}`, authorised: false },
    );
    const id = fc.oneof(fc.constant(endpointA), pathSegment(hostileString));
    const fields = {
      url: fieldValue(fc.oneof(fc.constant(PUBLIC_URL), internalUrl)),
      description: fieldValue(fc.constantFrom('orders', '')),
      tenant: fieldValue(fc.constantFrom('fuzz-a', 'fuzz-b')),
    };
    const webhookRequest = fc.oneof(
      request(
        'api webhooks',
        fc.constantFrom('GET', 'POST'),
        fc.constant('/v1/api/webhooks'),
        body(fields),
        asTenant,
      ),
      request(
        'api webhook',
        fc.constantFrom('GET', 'DELETE'),
        id.map((i) => `/v1/api/webhooks/${i}`),
        body(fields),
        asTenant,
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(webhookRequest, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        // Tenant A's own deletes would end the isolation checks early; B's are the point.
        const kept = batch.filter((g) => !(g.authorised && g.req.method === 'DELETE'));
        await send(kept, findings, (g, res) => {
          const problems = checkAnswer(g.exact ? 'A' : 'public', g.req, res, { secrets, statuses: A_ERRORS });
          const theirs = !g.authorised && g.req.path.startsWith(`/v1/api/webhooks/${endpointA}`);
          if (theirs && res.status < 300)
            problems.push(`tenant B was answered ${res.status} for tenant A's endpoint`);
          if (!g.authorised && res.text.includes(endpointA) && res.status < 300)
            problems.push("tenant A's endpoint id leaked to tenant B");
          return problems;
        });
      }),
      { seed: FUZZ_SEED + 12, numRuns: RUNS.webhooks, endOnFailure: true },
    );
    const still = await http.send({
      method: 'GET',
      path: `/v1/api/webhooks/${endpointA}`,
      headers: { authorization: `Bearer ${keyA}` },
    });
    expect(still.status, "tenant A's endpoint survived tenant B's requests").toBe(200);
    report('webhooks', findings);
  }, 240_000);

  it('no internal URL is ever registered, however it is written, by a tenant or by the operator', async () => {
    const findings = new Findings();
    const registration = fc.record({
      url: internalUrl,
      byOperator: fc.boolean(),
      description: fc.option(fc.constantFrom('x', 'orders'), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(registration, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const before = await counts();
        const generated: Generated[] = batch.map(({ url, byOperator, description }) => ({
          route: byOperator ? 'admin webhooks (internal url)' : 'api webhooks (internal url)',
          exact: true,
          authorised: true,
          req: {
            method: 'POST',
            path: byOperator ? '/v1/admin/webhooks' : '/v1/api/webhooks',
            headers: {
              authorization: `Bearer ${byOperator ? ADMIN : keyB}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({
              url,
              ...(byOperator ? { tenant: 'fuzz-b' } : {}),
              ...(description ? { description } : {}),
            }),
          },
        }));
        await send(generated, findings, (g, res) =>
          res.status === 400 ? [] : [`internal URL answered ${res.status}`],
        );
        const after = await counts();
        if (before.webhook_endpoints !== after.webhook_endpoints) {
          findings.add('an internal URL was registered', batch.map((b) => b.url).join(' '));
        }
      }),
      { seed: FUZZ_SEED + 13, numRuns: RUNS.ssrf, endOnFailure: true },
    );
    report('ssrf', findings);
  }, 240_000);
});
