import { createConnection } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyMethod, extraHeaders, hostileString, pathSegment, pctEncode } from './arbitraries.js';
import { checkAnswer, checkErrorBody, describeRequest } from './checks.js';
import { FUZZ_SEED, type FuzzContext, setupFuzz } from './context.js';
import { type FuzzRequest, sendRaw } from './http.js';
import { checkAlive, Findings } from './runner.js';

/**
 * The edges of the service: the public routes (/healthz, /v1/openapi.json, /v1/docs), paths no
 * route serves, and what reaches the HTTP layer below the app (request lines, Host headers,
 * framing). Same seed and reporting as the interface A suite.
 */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const RUNS = {
  public: Math.round(50 * SCALE),
  unknown: Math.round(50 * SCALE),
  protocol: Math.round(30 * SCALE),
  host: Math.round(60 * SCALE),
};

// Prefixes that interface B and OAuth are about to serve: an unknown path must not land on them.
const RESERVED = /^\/(oauth|\.well-known|v1\/(project|aggregator|swap|webhooks))(\/|$)/i;

describe('edges of the service under hostile input', () => {
  let ctx: FuzzContext;
  const processErrors: string[] = [];
  const onError = (error: unknown) => processErrors.push(String((error as Error)?.stack ?? error));

  beforeAll(async () => {
    process.on('uncaughtException', onError);
    process.on('unhandledRejection', onError);
    ctx = await setupFuzz();
    console.info(`[fuzz] edges: seed=${FUZZ_SEED} (set FUZZ_SEED to replay), scale=${SCALE}`);
  }, 120_000);

  afterAll(async () => {
    process.off('uncaughtException', onError);
    process.off('unhandledRejection', onError);
    if (ctx) {
      console.info(
        `[fuzz] edges: ${ctx.http.sent + rawSent} requests (${rawSent} raw); ${ctx.http.resets} retried after a reset keep-alive socket`,
      );
      await ctx.close();
    }
  });
  let rawSent = 0;

  const check = (name: string, findings: Findings) => {
    console.info(`[fuzz] ${name}: answers\n${findings.statusTable()}`);
    expect(findings.report(), `${name}: violations (seed ${FUZZ_SEED})`).toEqual([]);
    expect(processErrors, 'uncaught errors in the server process').toEqual([]);
  };

  const send = async (findings: Findings, route: string, req: FuzzRequest, statuses: number[]) => {
    try {
      const res = await ctx.http.send(req);
      findings.countStatus(route, res.status);
      for (const p of checkAnswer('public', req, res, { secrets: [ctx.apiKey], statuses }))
        findings.add(`${route}: ${p}`, `${describeRequest(req)} -> ${res.status} ${res.text.slice(0, 160)}`);
      return res;
    } catch (error) {
      findings.add(`${route}: no answer (${(error as Error).message})`, describeRequest(req));
      return undefined;
    }
  };

  it('public routes answer GET with their document whatever the headers and query; other methods get 404 {message, code}', async () => {
    const findings = new Findings();
    const publicRoute = fc.record({
      path: fc.constantFrom('/healthz', '/v1/openapi.json', '/v1/docs'),
      method: fc.oneof({ weight: 3, arbitrary: fc.constant('GET') }, { weight: 1, arbitrary: anyMethod }),
      query: fc.option(
        fc.dictionary(
          fc.string({ maxLength: 8 }),
          hostileString.map((v) => v.slice(0, 100)),
          { maxKeys: 3 },
        ),
        { nil: undefined },
      ),
      headers: extraHeaders,
      authorization: fc.option(
        fc.oneof(
          fc.constant(`Bearer ${'x'.repeat(20)}`),
          fc.string({ maxLength: 30 }).map((s) => `Bearer ${s.replace(/[^\x20-\x7e]/g, '')}`),
        ),
        { nil: undefined },
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(publicRoute, { minLength: 25, maxLength: 25 }), async (batch) => {
        await Promise.all(
          batch.map(async (r) => {
            const query = r.query
              ? `?${Object.entries(r.query)
                  .map(([k, v]) => `${pctEncode(k)}=${pctEncode(v)}`)
                  .join('&')}`
              : '';
            const headers = { ...r.headers, ...(r.authorization ? { authorization: r.authorization } : {}) };
            const req = { method: r.method, path: `${r.path}${query}`, headers };
            const res = await send(findings, r.path, req, [200, 404]);
            if (!res) return;
            const get = r.method === 'GET' || r.method === 'HEAD';
            if (get !== (res.status === 200))
              findings.add(`${r.path}: ${r.method} answered ${res.status}`, describeRequest(req));
            if (r.method === 'GET' && res.status === 200) {
              const type = String(res.headers['content-type'] ?? '');
              if (
                r.path === '/v1/docs' ? !type.startsWith('text/html') : !type.startsWith('application/json')
              )
                findings.add(`${r.path}: content-type ${type}`, describeRequest(req));
              if (r.path === '/healthz' && res.text !== '{"status":"ok"}')
                findings.add(`/healthz body ${res.text.slice(0, 80)}`, describeRequest(req));
              if (r.path === '/v1/openapi.json' && !/^\{"openapi":"3\./.test(res.text))
                findings.add('openapi.json is not an OpenAPI 3 document', describeRequest(req));
            }
          }),
        );
      }),
      { seed: FUZZ_SEED + 10, numRuns: RUNS.public, endOnFailure: true },
    );
    check('public routes', findings);
  }, 120_000);

  it('paths no route serves: 404 (or 401 under /v1/api) with exactly {message, code}, whatever the method and encoding', async () => {
    const findings = new Findings();
    const segment = pathSegment(
      fc.oneof(
        fc.string({ minLength: 1, maxLength: 12 }),
        hostileString.map((s) => s.slice(0, 200)),
      ),
    );
    const unknown = fc.record({
      prefix: fc.constantFrom(
        '',
        '/v1',
        '/v1/api',
        '/v2',
        '/v1/docs',
        '/healthz',
        '/api',
        '/static',
        '/.git',
      ),
      segments: fc.array(segment, { minLength: 1, maxLength: 4 }),
      method: anyMethod,
      auth: fc.boolean(),
      body: fc.option(fc.json({ maxDepth: 2 }), { nil: undefined }),
      headers: extraHeaders,
    });
    await fc.assert(
      fc.asyncProperty(fc.array(unknown, { minLength: 25, maxLength: 25 }), async (batch) => {
        await Promise.all(
          batch.map(async (u) => {
            const path = `${u.prefix}/${u.segments.join('/')}`;
            // Dot segments may resolve onto a real route (/v1/api/x/.. is /v1/api): skip those.
            if (RESERVED.test(path) || /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path)) return;
            const headers: Record<string, string> = {
              ...u.headers,
              ...(u.auth ? { authorization: `Bearer ${ctx.apiKey}` } : {}),
            };
            if (u.body !== undefined) headers['content-type'] = 'application/json';
            const req = {
              method: u.method,
              path,
              headers,
              ...(u.body !== undefined ? { body: u.body } : {}),
            };
            await send(findings, 'unknown', req, [400, 401, 404, 413, 415]);
          }),
        );
        await checkAlive(ctx, findings);
      }),
      { seed: FUZZ_SEED + 11, numRuns: RUNS.unknown, endOnFailure: true },
    );
    check('unknown paths', findings);
  }, 120_000);

  it('malformed HTTP below the app (request lines, framing, header sizes): never a 5xx, and the service keeps answering', async () => {
    const findings = new Findings();
    const key = ctx.apiKey;
    const line = (s: string) => `${s}\r\n`;
    const rawRequest = fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => ({ label: 'random bytes', bytes: b })),
      fc
        .constantFrom(
          'GARBAGE\r\n\r\n',
          'GET\r\n\r\n',
          'GET / HTTP/1.1\r\n\r\n',
          'GET /healthz HTTP/9.9\r\nHost: a\r\n\r\n',
          'GET /healthz HTTP/1.0\r\n\r\n',
          'get /healthz HTTP/1.1\r\nHost: a\r\n\r\n',
          'FOO /healthz HTTP/1.1\r\nHost: a\r\n\r\n',
          'GET /healthz\r\n\r\n',
          'GET  /healthz  HTTP/1.1\r\nHost: a\r\n\r\n',
          'GET /v1/api/accounts/\u0000 HTTP/1.1\r\nHost: a\r\n\r\n',
          'GET /healthz HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n',
          'GET /healthz HTTP/1.1\r\nHost: a\r\n X-Folded: yes\r\n\r\n',
          'GET /healthz HTTP/1.1\r\nHost: a\r\nX-A: b\rX-C: d\r\n\r\n',
          'GET /healthz HTTP/1.1\nHost: a\n\n',
          'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
          'OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n',
          'CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n',
          'GET http://evil.example/healthz HTTP/1.1\r\nHost: a\r\n\r\n',
          'GET http://[::1/healthz HTTP/1.1\r\nHost: a\r\n\r\n',
          'GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
          'GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n',
          'POST /v1/api/mint HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n',
          'POST /v1/api/mint HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n',
          'POST /v1/api/mint HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
          'POST /v1/api/mint HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
          'POST /v1/api/mint HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
          'POST /v1/api/mint HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n{}\r\n0\r\n\r\n',
          'POST /v1/api/mint HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n',
          'POST /v1/api/mint HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: identity\r\n\r\n',
        )
        .map((text) => ({ label: text.split('\r\n')[0]!, bytes: Buffer.from(text, 'latin1') })),
      fc
        .tuple(
          fc.constantFrom('/healthz', '/v1/api/accounts/', '/v1/docs'),
          fc.uint8Array({ minLength: 1, maxLength: 20 }),
        )
        .map(([p, b]) => ({
          label: 'raw bytes in the path',
          bytes: Buffer.concat([
            Buffer.from(`GET ${p}`),
            Buffer.from(b.map((x) => (x === 0x20 || x === 0x0a || x === 0x0d ? 0x41 : x))),
            Buffer.from(' HTTP/1.1\r\nHost: a\r\n\r\n'),
          ]),
        })),
      fc.integer({ min: 17_000, max: 80_000 }).map((n) => ({
        label: `header of ${n} bytes`,
        bytes: Buffer.from(`GET /healthz HTTP/1.1\r\nHost: a\r\nX-Big: ${'b'.repeat(n)}\r\n\r\n`),
      })),
      fc.integer({ min: 200, max: 2_000 }).map((n) => ({
        label: `${n} headers`,
        bytes: Buffer.from(
          `GET /healthz HTTP/1.1\r\nHost: a\r\n${Array.from({ length: n }, (_, i) => line(`X-H${i}: v`)).join('')}\r\n`,
        ),
      })),
      fc.constant({
        label: 'authenticated body shorter than its Content-Length',
        bytes: Buffer.from(
          `POST /v1/api/mint HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(rawRequest, { minLength: 10, maxLength: 10 }), async (batch) => {
        await Promise.all(
          batch.map(async (r) => {
            rawSent++;
            const res = await sendRaw(ctx.harness.baseUrl, r.bytes, 500);
            findings.countStatus('raw', res.status);
            if (res.status >= 500)
              findings.add(`raw: ${res.status} for ${r.label.slice(0, 60)}`, res.text.slice(0, 200));
            // When the app answered (JSON), its body must have the documented shape.
            const head = res.text.slice(0, res.text.indexOf('\r\n\r\n'));
            const type = /\r\ncontent-type: *([^\r]*)/i.exec(head)?.[1] ?? '';
            if (res.status >= 400 && type.startsWith('application/json')) {
              const body = res.text.slice(res.text.indexOf('\r\n\r\n') + 4);
              for (const p of checkErrorBody('public', type, body)) findings.add(`raw: ${p}`, r.label);
            }
          }),
        );
        await checkAlive(ctx, findings);
      }),
      { seed: FUZZ_SEED + 12, numRuns: RUNS.protocol, endOnFailure: true },
    );
    check('malformed HTTP', findings);
  }, 120_000);

  it('a Host header or request target the HTTP adapter refuses still gets a JSON {message, code} error', async () => {
    const findings = new Findings();
    const target = fc.oneof(
      fc.record({
        host: fc.oneof(
          fc.constantFrom(
            'a b',
            'ex@mple',
            'exa mple.com',
            '[::1',
            'host:99999',
            'host:-1',
            'évil',
            '%41',
            'a/b',
            'a\\b',
            '..',
            'x'.repeat(300),
            'user:pw@host',
          ),
          fc
            .string({ minLength: 1, maxLength: 30 })
            .map((s) => s.replace(/[^\x21-\x7e]/g, ''))
            .filter((s) => s.length > 0),
        ),
        path: fc.constantFrom('/healthz', '/v1/api/accounts/x', '/v1/docs', '/nope'),
      }),
      fc.record({
        host: fc.constant(undefined),
        path: fc.constantFrom('/v1/api/accounts\\x', '/healthz\\', '/v1\\api\\mint', '/\\\\evil.example/x'),
      }),
    );
    await fc.assert(
      fc.asyncProperty(target, async (t) => {
        const req = {
          method: 'GET',
          path: t.path,
          headers: {
            authorization: `Bearer ${ctx.apiKey}`,
            ...(t.host !== undefined ? { host: t.host } : {}),
          },
        };
        await send(
          findings,
          t.host !== undefined ? 'host header' : 'backslash path',
          req,
          [200, 400, 401, 404],
        );
      }),
      { seed: FUZZ_SEED + 13, numRuns: RUNS.host, endOnFailure: true },
    );
    check('Host header and request target', findings);
  }, 120_000);

  it('an oversized chunked body: the 413 either closes the connection (Connection: close) or leaves it usable', async () => {
    const big = `{"name":"${'x'.repeat(131_000)}"}`;
    const url = new URL(ctx.harness.baseUrl);
    // A client that streams its body in 8 KiB chunks, reads the 413, and later reuses the connection.
    const outcome = await new Promise<{ first: string; second: string }>((resolve) => {
      const socket = createConnection({ host: url.hostname, port: Number(url.port) });
      let text = '';
      let bodySent = false;
      let answered = false;
      let secondSent = false;
      const sendSecond = () => {
        if (secondSent || !bodySent || !answered) return;
        secondSent = true;
        setTimeout(() => socket.write('GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n'), 700);
      };
      const finish = () => {
        const at = text.indexOf('HTTP/1.1', 1);
        resolve({ first: at > 0 ? text.slice(0, at) : text, second: at > 0 ? text.slice(at) : '' });
      };
      socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        if (!answered && /"message"/.test(text)) {
          answered = true;
          sendSecond();
        }
        if (/"status":"ok"/.test(text)) socket.destroy();
      });
      socket.on('close', finish);
      socket.on('error', () => undefined);
      socket.setTimeout(5_000, () => socket.destroy());
      socket.write(
        `POST /v1/api/mint HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${ctx.apiKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      let offset = 0;
      const step = () => {
        if (offset >= big.length) {
          socket.write('0\r\n\r\n', () => {
            bodySent = true;
            sendSecond();
          });
          return;
        }
        const chunk = big.slice(offset, offset + 8192);
        offset += chunk.length;
        socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`, () => setImmediate(step));
      };
      step();
    });
    rawSent += 2;
    expect(outcome.first).toMatch(/^HTTP\/1\.1 413/);
    const saidClose = /\r\nconnection: *close/i.test(outcome.first);
    // Either the server announced the close, or the kept-alive connection answers the next request.
    expect(
      saidClose || /^HTTP\/1\.1 200/.test(outcome.second),
      `the 413 said "Connection: keep-alive" but the next request on the connection got: ${outcome.second.slice(0, 80) || '(connection closed without an answer)'}`,
    ).toBe(true);
  }, 30_000);

  it("sent its share of the suite's 10,000+ generated requests", () => {
    expect(ctx.http.sent + rawSent).toBeGreaterThanOrEqual(Math.round(2_000 * Math.min(1, SCALE)));
  });
});
