/**
 * CORS of the browser-facing paths (interface B, OAuth token/revoke, the metadata), answered by the
 * real app over in-memory ports: preflights come back before authentication and before the
 * rate-limit guard; the allowed origins are the public clients' redirect origins, or the list
 * configured; interface A and introspection stay server-to-server.
 */
import { createFakeRateLimiter, createMemoryOAuthStore, createTestDeps } from '@token-actions/core/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../src/app.js';
import { allowedOriginCheck } from '../../src/http/cors.js';
import { createLogger } from '../../src/logger.js';
import { registerClient } from '../../src/oauth/index.js';
import { serveOverNode } from '../support/node-server.js';

const ISSUER = 'http://127.0.0.1:8787';
const APP_ORIGIN = 'https://wallet-app.example';
const OTHER_ORIGIN = 'https://evil.example';

async function build(options: { corsAllowedOrigins?: string[]; perAddressPerMinute?: number } = {}) {
  const t = await createTestDeps();
  const oauthStore = createMemoryOAuthStore();
  await registerClient(
    { store: oauthStore, clock: t.clock },
    { name: 'Browser app', type: 'public', redirectUris: [`${APP_ORIGIN}/callback`] },
  );
  await registerClient(
    { store: oauthStore, clock: t.clock },
    { name: 'Backend', type: 'confidential', redirectUris: ['https://backend.example/cb'] },
  );
  const logger = createLogger('silent');
  const app = createApp({
    deps: t.deps,
    logger,
    maxBodyBytes: 65_536,
    isLocalnet: true,
    ...(options.corsAllowedOrigins ? { corsAllowedOrigins: options.corsAllowedOrigins } : {}),
    interfaceB: {
      issuer: ISSUER,
      oauthStore,
      rateLimiter: createFakeRateLimiter(),
      clock: t.clock,
      logger,
      limits: { perClientPerMinute: 100, perAddressPerMinute: options.perAddressPerMinute ?? 100 },
      accessTokenTtlSec: 900,
      refreshTokenTtlSec: 86_400,
    },
  });
  return { app, t, oauthStore };
}

const preflight = (origin: string, method = 'POST', headers = 'authorization,content-type') => ({
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
});

const BROWSER_PATHS = [
  '/v1/project/swap',
  '/v1/aggregator/swap',
  '/v1/swap/execute',
  '/oauth/token',
  '/oauth/revoke',
  '/.well-known/oauth-authorization-server',
];

describe('CORS for browser apps', () => {
  it('answers preflights from a public client origin on every browser path, before auth and limits', async () => {
    const { app } = await build({ perAddressPerMinute: 1 });
    for (const path of BROWSER_PATHS) {
      for (let i = 0; i < 3; i++) {
        const res = await app.request(`${ISSUER}${path}`, preflight(APP_ORIGIN));
        expect(res.status, path).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
        expect(res.headers.get('access-control-allow-methods')).toContain('POST');
        expect(res.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
        expect(res.headers.get('vary')).toContain('Origin');
        // The guard never saw it: no rate-limit headers, no 401 challenge, no 429.
        expect(res.headers.get('ratelimit')).toBeNull();
        expect(res.headers.get('www-authenticate')).toBeNull();
      }
    }
  });

  // Over Node the middleware sets it on Node's response before the answer exists (SecuredResponse
  // joins it with an answer's own Vary); in process, on the answer afterwards.
  it.each(['in process', 'over Node'] as const)(
    'marks every answer to a request without an Origin as varying by Origin, once (%s)',
    async (transport) => {
      const { app } = await build();
      const node = transport === 'over Node' ? await serveOverNode(app.fetch) : undefined;
      onTestFinished(() => node?.close());
      for (const path of BROWSER_PATHS) {
        const res = node ? await fetch(`${node.origin}${path}`) : await app.request(`${ISSUER}${path}`);
        expect(res.headers.get('vary'), path).toBe('Origin');
        expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
        if (path.startsWith('/v1/'))
          expect(res.headers.get('ratelimit'), path).toMatch(/^"address";r=\d+;t=\d+$/);
      }
    },
  );

  it('puts the allow-origin on real answers, errors included, and exposes the rate-limit headers', async () => {
    const { app } = await build();
    const swap = await app.request(`${ISSUER}/v1/project/swap?tokenPair=SOL-USDC`, {
      headers: { origin: APP_ORIGIN },
    });
    // No swap routes in this app: interface B's own 404, through its guard.
    expect(swap.status).toBe(404);
    expect(await swap.json()).toHaveProperty('rateLimit');
    expect(swap.headers.get('ratelimit')).not.toBeNull();
    expect(swap.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(swap.headers.get('access-control-expose-headers')).toMatch(/WWW-Authenticate/);
    expect(swap.headers.get('access-control-expose-headers')).toMatch(/RateLimit/);

    const token = await app.request(`${ISSUER}/oauth/token`, {
      method: 'POST',
      headers: { origin: APP_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=nope',
    });
    expect(token.status).toBe(401); // invalid_client: no client_id
    expect(token.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);

    const metadata = await app.request(`${ISSUER}/.well-known/oauth-authorization-server`, {
      headers: { origin: APP_ORIGIN },
    });
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
  });

  it('admits no other origin, and not a confidential client redirect origin', async () => {
    const { app } = await build();
    for (const origin of [OTHER_ORIGIN, 'https://backend.example', 'null']) {
      const res = await app.request(`${ISSUER}/v1/project/swap`, preflight(origin, 'GET'));
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const real = await app.request(`${ISSUER}/oauth/token`, { method: 'POST', headers: { origin } });
      expect(real.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('keeps interface A and introspection server-to-server', async () => {
    const { app } = await build();
    for (const path of ['/v1/api/donate/sol', '/v1/api/transaction/track/x', '/oauth/introspect']) {
      const res = await app.request(`${ISSUER}${path}`, preflight(APP_ORIGIN));
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });

  it('uses CORS_ALLOWED_ORIGINS instead of the client registry when configured', async () => {
    const { app } = await build({ corsAllowedOrigins: ['https://dashboard.example'] });
    const configured = await app.request(`${ISSUER}/v1/swap/execute`, preflight('https://dashboard.example'));
    expect(configured.headers.get('access-control-allow-origin')).toBe('https://dashboard.example');
    const registry = await app.request(`${ISSUER}/v1/swap/execute`, preflight(APP_ORIGIN));
    expect(registry.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('sees a newly registered public client once the brief cache runs out', async () => {
    const { t, oauthStore } = await build();
    const allowed = allowedOriginCheck({ store: oauthStore, clock: t.clock, cacheMs: 30_000 });
    expect(await allowed('https://new-app.example')).toBe(false);
    await registerClient(
      { store: oauthStore, clock: t.clock },
      { name: 'New', type: 'public', redirectUris: ['https://new-app.example/cb'] },
    );
    expect(await allowed('https://new-app.example')).toBe(false);
    t.clock.advance(30_000);
    expect(await allowed('https://new-app.example')).toBe(true);
  });
});
