import { createMemoryOAuthStore } from '@token-actions/core/testing';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { browserCors } from './cors.js';

function app() {
  const hono = new Hono();
  hono.use(
    '*',
    browserCors({
      allowedOrigins: ['https://app.example'],
      store: createMemoryOAuthStore(),
      clock: { now: () => new Date() },
    }),
  );
  hono.get('/v1/project/swap', (c) => c.json({ ok: true }));
  return hono;
}

describe('browserCors', () => {
  it('answers a request without Origin with Vary: Origin only, and the body untouched', async () => {
    const res = await app().request('/v1/project/swap');
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toBe('Origin');
    const names: string[] = [];
    res.headers.forEach((_, name) => {
      names.push(name);
    });
    expect(names.filter((k) => k.startsWith('access-control-'))).toEqual([]);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('answers an allowed origin with its CORS headers, and a refused one without Allow-Origin', async () => {
    const allowed = await app().request('/v1/project/swap', { headers: { origin: 'https://app.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(allowed.headers.get('access-control-expose-headers')).toContain('RateLimit');
    expect(allowed.headers.get('vary')).toBe('Origin');
    expect(await allowed.json()).toEqual({ ok: true });

    const refused = await app().request('/v1/project/swap', { headers: { origin: 'https://evil.example' } });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('vary')).toBe('Origin');

    const preflight = await app().request('/v1/project/swap', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET,POST,OPTIONS');
  });
});
