import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestId } from './request-id.js';
import { SecuredResponse } from './secured-response.js';
import { securityHeaders } from './security-headers.js';

/** Raw heads as Node received them: a repeated header would show twice. */
async function head(port: number, path: string, requestHeaders: Record<string, string> = {}) {
  return new Promise<{ status: number; raw: string[]; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: requestHeaders }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, raw: res.rawHeaders, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function values(raw: string[], name: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) found.push(raw[i + 1]!);
  return found;
}

describe('SecuredResponse: the security headers added as an answer is written', () => {
  const routes: Record<string, (res: ServerResponse) => void> = {
    '/json': (res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'),
    '/html': (res) => res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' }).end('<p>'),
    '/html-policy': (res) =>
      res
        .writeHead(200, { 'Content-Type': 'text/html', 'Content-Security-Policy': "default-src 'self'" })
        .end('<p>'),
    '/html-framed-policy': (res) =>
      res
        .writeHead(200, [
          'Content-Type',
          'text/html',
          'Content-Security-Policy',
          "default-src 'none'; frame-ancestors 'self'",
          'X-Frame-Options',
          'SAMEORIGIN',
        ])
        .end('<p>'),
    '/html-set': (res) => {
      res.setHeader('Content-Type', 'TEXT/HTML');
      res.setHeader('Content-Security-Policy', "img-src 'self'");
      res.end('<p>');
    },
    '/implicit': (res) => res.end('plain'),
    '/json-sniffable': (res) =>
      res.writeHead(200, ['Content-Type', 'application/json', 'X-Content-Type-Options', 'off']).end('{}'),
    '/status-reason': (res) => res.writeHead(404, 'Gone Fishing', { 'content-type': 'text/plain' }).end(),
    '/vary-set': (res) => {
      res.setHeader('Vary', 'Origin');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    },
    '/vary-both': (res) => {
      res.setHeader('Vary', 'Origin');
      res.writeHead(200, ['Content-Type', 'text/css', 'VARY', 'Accept-Encoding']).end('a{}');
    },
    '/vary-given': (res) =>
      res.writeHead(200, { 'content-type': 'text/css', vary: 'Accept-Encoding' }).end('a{}'),
  };
  let server: ReturnType<typeof createServer>;
  let port = 0;

  beforeAll(async () => {
    server = createServer({ ServerResponse: SecuredResponse }, (req, res) => routes[req.url ?? '']!(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends nosniff on every answer and nothing about framing on non-HTML ones', async () => {
    for (const path of ['/json', '/implicit', '/status-reason']) {
      const res = await head(port, path);
      expect(values(res.raw, 'x-content-type-options'), path).toEqual(['nosniff']);
      expect(values(res.raw, 'x-frame-options'), path).toEqual([]);
      expect(values(res.raw, 'content-security-policy'), path).toEqual([]);
    }
    const reason = await head(port, '/status-reason');
    expect(reason.status).toBe(404);
    expect(values(reason.raw, 'content-type')).toEqual(['text/plain']);
  });

  it('forbids framing of an HTML page, adding frame-ancestors to its own policy once', async () => {
    const bare = await head(port, '/html');
    expect(values(bare.raw, 'x-frame-options')).toEqual(['DENY']);
    expect(values(bare.raw, 'content-security-policy')).toEqual(["frame-ancestors 'none'"]);
    expect(values(bare.raw, 'x-content-type-options')).toEqual(['nosniff']);

    const own = await head(port, '/html-policy');
    expect(values(own.raw, 'content-security-policy')).toEqual([
      "default-src 'self'; frame-ancestors 'none'",
    ]);

    const set = await head(port, '/html-set');
    expect(values(set.raw, 'content-security-policy')).toEqual(["img-src 'self'; frame-ancestors 'none'"]);
    expect(values(set.raw, 'x-frame-options')).toEqual(['DENY']);
  });

  it('keeps a page’s own frame-ancestors and, as the middleware does, answers DENY and nosniff over its own', async () => {
    const res = await head(port, '/html-framed-policy');
    expect(values(res.raw, 'content-security-policy')).toEqual([
      "default-src 'none'; frame-ancestors 'self'",
    ]);
    expect(values(res.raw, 'x-frame-options')).toEqual(['DENY']);
    expect(values(res.raw, 'x-content-type-options')).toEqual(['nosniff']);
    const json = await head(port, '/json-sniffable');
    expect(values(json.raw, 'x-content-type-options')).toEqual(['nosniff']);
  });

  it('joins a Vary set before the answer with the answer’s own, once', async () => {
    expect(values((await head(port, '/vary-set')).raw, 'vary')).toEqual(['Origin']);
    const both = await head(port, '/vary-both');
    expect(values(both.raw, 'vary')).toEqual(['Origin, Accept-Encoding']);
    expect(values(both.raw, 'content-type')).toEqual(['text/css']);
    expect(values(both.raw, 'x-content-type-options')).toEqual(['nosniff']);
    expect(values((await head(port, '/vary-given')).raw, 'vary')).toEqual(['Accept-Encoding']);
  });

  it('under the app, answers with the request id and nosniff once each, set below the app', async () => {
    const app = new Hono();
    app.use('*', requestId);
    app.use('*', securityHeaders);
    app.get('/read', (c) => c.json({ ok: true }));
    const appServer = createServer({ ServerResponse: SecuredResponse }, getRequestListener(app.fetch));
    await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
    try {
      const appPort = (appServer.address() as AddressInfo).port;
      const res = await head(appPort, '/read', { 'X-Request-Id': 'trace-7' });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ ok: true });
      expect(values(res.raw, 'x-request-id')).toEqual(['trace-7']);
      expect(values(res.raw, 'x-content-type-options')).toEqual(['nosniff']);
      expect(values(res.raw, 'content-type')).toEqual(['application/json']);
    } finally {
      await new Promise<void>((resolve) => appServer.close(() => resolve()));
    }
  });
});
