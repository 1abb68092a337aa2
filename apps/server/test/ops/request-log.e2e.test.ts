import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { type Harness, startHarness } from '../support/harness.js';
import { obtainAccessToken } from '../support/oauth-token.js';

/**
 * The request log of the real service (pino JSON, as on a non-terminal stdout): one line per
 * request with its method, route pattern, status, duration, request id and caller, at the level
 * its status calls for, and nothing secret.
 */
describe('request log', () => {
  let h: Harness;
  const lines: Record<string, unknown>[] = [];
  const text: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) {
          text.push(line);
          lines.push(JSON.parse(line));
        }
        done();
      },
    });
    h = await startHarness({ LOG_LEVEL: 'info' }, (level) => createLogger(level, sink));
  }, 120_000);
  afterAll(async () => {
    await h?.close().catch(() => {});
  });

  /** The request lines answering the request with this id. */
  const linesOf = (requestId: string) =>
    lines.filter((line) => line.requestId === requestId && typeof line.route === 'string');

  async function send(path: string, init: RequestInit = {}) {
    const res = await fetch(`${h.baseUrl}${path}`, init);
    await res.arrayBuffer();
    // The line is written once the answer is complete, just before it leaves.
    await new Promise((r) => setTimeout(r, 20));
    return { status: res.status, requestId: res.headers.get('x-request-id')! };
  }

  it('a 200, a 400 and a 401 each give one line with their fields, at info, warn and warn', async () => {
    const auth = { authorization: `Bearer ${h.apiKey}` };
    const created = await fetch(`${h.baseUrl}/v1/api/accounts`, { method: 'POST', headers: auth });
    const { publicKey } = (await created.json()) as { publicKey: string };

    const ok = await send(`/v1/api/accounts/${publicKey}`, { headers: auth });
    const bad = await send('/v1/api/transaction/track/not-a-signature', { headers: auth });
    const refused = await send('/v1/api/accounts', {
      method: 'POST',
      headers: { authorization: 'Bearer ta_wrong' },
    });
    expect([ok.status, bad.status, refused.status]).toEqual([200, 400, 401]);

    const [okLine, ...moreOk] = linesOf(ok.requestId);
    expect(moreOk).toEqual([]);
    expect(okLine).toMatchObject({
      level: 30,
      method: 'GET',
      route: '/v1/api/accounts/:publicKey',
      status: 200,
      requestId: ok.requestId,
      tenant: 'default',
      msg: 'GET /v1/api/accounts/:publicKey 200',
    });
    expect(okLine!.durationMs).toEqual(expect.any(Number));
    expect(okLine!.durationMs as number).toBeGreaterThanOrEqual(0);
    // The raw path (with the account's key) is never logged: the route pattern stands for it.
    expect(JSON.stringify(okLine)).not.toContain(publicKey);

    expect(linesOf(bad.requestId)).toEqual([
      expect.objectContaining({
        level: 40,
        method: 'GET',
        route: '/v1/api/transaction/track/:transactionId',
        status: 400,
        tenant: 'default',
      }),
    ]);
    const refusedLines = linesOf(refused.requestId);
    expect(refusedLines).toEqual([
      expect.objectContaining({ level: 40, method: 'POST', route: '/v1/api/accounts', status: 401 }),
    ]);
    expect(refusedLines[0]).not.toHaveProperty('tenant');
  });

  it('interface B lines name the OAuth client; OAuth routes log no query string, code or token', async () => {
    const credentials = h.server.credentials.oauth!;
    const token = await obtainAccessToken(h.baseUrl, credentials, { scope: 'read' });
    const quote = await send('/v1/project/swap?tokenPair=SOL-USDC&amount=1', {
      headers: { authorization: `Bearer ${token.accessToken}` },
    });
    expect(quote.status).toBe(200);
    expect(linesOf(quote.requestId)).toEqual([
      expect.objectContaining({
        level: 30,
        route: '/v1/project/swap',
        status: 200,
        clientId: credentials.clientId,
      }),
    ]);
    const authorize = lines.filter((line) => line.route === '/oauth/authorize');
    expect(authorize.map((line) => line.method).sort()).toEqual(['GET', 'POST']);
    const all = text.join('\n');
    for (const secret of [h.apiKey, token.accessToken, credentials.clientSecret, 'ta_wrong']) {
      expect(all).not.toContain(secret);
    }
    expect(all).not.toMatch(/taac_|code_challenge|code_verifier|tokenPair=/);
  });

  it('LOG_LEVEL governs it: at warn, a 200 writes nothing and a 404 still writes its line', async () => {
    const quiet: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        quiet.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const { requestLog } = await import('../../src/ops/request-log.js');
    const { Hono } = await import('hono');
    const app = new Hono();
    app.use('*', requestLog(createLogger('warn', sink)));
    app.get('/ok', (c) => c.text('ok'));
    expect((await app.request('/ok')).status).toBe(200);
    expect((await app.request('/missing')).status).toBe(404);
    expect(quiet.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 40, method: 'GET', route: 'unmatched', status: 404 }),
    ]);
  });
});
