import { domainError } from '@token-actions/core';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { paymentsErrorHandler } from '../payments/render.js';
import { type SwapsEnv, swapsErrorHandler } from '../swaps/render.js';
import { DomainHttpError } from './errors.js';
import { requestLogger } from './request-context.js';
import { requestId } from './request-id.js';

type Line = { level: string; fields: Record<string, unknown>; message: string | undefined };

function recordingLogger() {
  const lines: Line[] = [];
  const at = (level: string) => (fields: object, message?: string) =>
    lines.push({ level, fields: fields as Record<string, unknown>, message });
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error') } };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('requestLogger', () => {
  it('writes the request id into the lines of each of several requests served at once', async () => {
    const { lines, logger } = recordingLogger();
    const app = new Hono();
    app.use('*', requestId);
    app.get('/work/:ms', async (c) => {
      const log = requestLogger(c, logger);
      log.info({ step: 1 }, 'started');
      await sleep(Number(c.req.param('ms')));
      log.warn({ step: 2 }, 'finished');
      return c.body(null, 204);
    });
    await Promise.all([
      app.request('/work/30', { headers: { 'x-request-id': 'slow' } }),
      app.request('/work/1', { headers: { 'x-request-id': 'fast' } }),
    ]);
    expect(lines.map((l) => [l.fields.requestId, l.fields.step, l.level, l.message])).toEqual([
      ['slow', 1, 'info', 'started'],
      ['fast', 1, 'info', 'started'],
      ['fast', 2, 'warn', 'finished'],
      ['slow', 2, 'warn', 'finished'],
    ]);
  });

  it('is the logger itself outside the request-id middleware, and keeps a missing level missing', async () => {
    const { logger } = recordingLogger();
    const app = new Hono();
    const partial = { info: logger.info };
    let seen: [unknown, unknown] = [undefined, undefined];
    app.get('/', (c) => {
      seen = [requestLogger(c, logger), requestLogger(c, partial)];
      return c.body(null, 204);
    });
    await app.request('/');
    expect(seen[0]).toBe(logger);
    expect(seen[1]).toBe(partial);
    const scoped: { info?: unknown; error?: unknown }[] = [];
    const withId = new Hono();
    withId.use('*', requestId);
    withId.get('/', (c) => {
      scoped.push(requestLogger(c, partial));
      return c.body(null, 204);
    });
    await withId.request('/');
    expect(typeof scoped[0]!.info).toBe('function');
    expect(scoped[0]!.error).toBeUndefined();
  });

  it('gives the error handlers’ lines of payments and swaps the id of the request that failed', async () => {
    for (const handler of [paymentsErrorHandler, swapsErrorHandler]) {
      const { lines, logger } = recordingLogger();
      // The swaps' variables (what their error body reports) are a superset of the payments' none.
      const app = new Hono<SwapsEnv>();
      app.use('*', requestId);
      app.onError(handler(logger));
      app.get('/bug', () => {
        throw new Error('a bug');
      });
      app.get('/down', () => {
        throw new DomainHttpError(domainError('STORE_UNAVAILABLE', 'the store is down'));
      });
      const bug = await app.request('/bug', { headers: { 'x-request-id': 'req-bug' } });
      const down = await app.request('/down', { headers: { 'x-request-id': 'req-down' } });
      expect([bug.status, down.status]).toEqual([500, 500]);
      expect(lines.map((l) => [l.level, l.fields.requestId])).toEqual([
        ['error', 'req-bug'],
        ['error', 'req-down'],
      ]);
      expect(lines[1]!.fields.code).toBe('STORE_UNAVAILABLE');
    }
  });
});
