import type { ClockPort, OAuthStore } from '@token-actions/core';
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { z } from 'zod';
import { withAnswerHeaders } from './security-headers.js';

/**
 * Paths a browser app may call from another origin: interface B, the OAuth token and revocation
 * endpoints and the authorization server metadata. Interface A stays server-to-server (its API key
 * must not live in a browser), and introspection is for confidential clients only.
 */
export const BROWSER_PATHS = [
  '/v1/project/*',
  '/v1/aggregator/*',
  '/v1/swap/*',
  '/oauth/token',
  '/oauth/revoke',
  '/.well-known/oauth-authorization-server',
] as const;

/** `CORS_ALLOWED_ORIGINS`: a comma-separated list of origins (`https://app.example`), nothing else. */
export const CorsOriginsSchema = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z.string().refine((origin) => {
        try {
          return new URL(origin).origin === origin;
        } catch {
          return false;
        }
      }, 'each entry must be an origin such as https://app.example (scheme, host, optional port; no path)'),
    ),
  );

export interface BrowserCorsDeps {
  /** Configured origins; without them, the redirect-URI origins of public OAuth clients. */
  readonly allowedOrigins?: readonly string[];
  readonly store: OAuthStore;
  readonly clock: ClockPort;
  /** How long the origins read from the OAuth store are reused. */
  readonly cacheMs?: number;
}

function originOf(uri: string): string | undefined {
  try {
    const origin = new URL(uri).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * The allowed-origin check: the configured list, or the origins of the registered redirect URIs of
 * public clients (the browser apps the OAuth metadata invites), read from the store and cached
 * briefly so a newly registered client is admitted within `cacheMs`. A store failure admits nobody
 * and is not cached.
 */
export function allowedOriginCheck(deps: BrowserCorsDeps): (origin: string) => Promise<boolean> {
  if (deps.allowedOrigins) {
    const fixed = new Set(deps.allowedOrigins);
    return (origin) => Promise.resolve(fixed.has(origin));
  }
  const cacheMs = deps.cacheMs ?? 30_000;
  let cached: { origins: Set<string>; until: number } | undefined;
  return async (origin) => {
    const now = deps.clock.now().getTime();
    if (!cached || now >= cached.until) {
      const uris = await deps.store.clients.publicRedirectUris();
      if (uris.isErr()) return false;
      const origins = uris.value.map(originOf).filter((o): o is string => o !== undefined);
      cached = { origins: new Set(origins), until: now + cacheMs };
    }
    return cached.origins.has(origin);
  };
}

const VARY_ORIGIN = { Vary: 'Origin' } as const;

/**
 * hono/cors with the origin check above. Mounted on the root app before the sub-apps, so a
 * preflight is answered (204) before authentication and before the rate-limit guard. A request
 * without an Origin header is not a CORS request: it only gets `Vary: Origin`, on whatever answers
 * (`withAnswerHeaders`). (hono/cors sets Access-Control-Expose-Headers before the handler runs, which makes Hono
 * rebuild the handler's response around its body stream: about a fifth of a quote's CPU.)
 */
export function browserCors(deps: BrowserCorsDeps): MiddlewareHandler {
  const allowed = allowedOriginCheck(deps);
  const corsForBrowsers = cors({
    origin: async (origin) => (origin && (await allowed(origin)) ? origin : null),
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'],
    exposeHeaders: ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'WWW-Authenticate'],
    maxAge: 600,
  });
  return (c, next) =>
    c.req.header('origin') !== undefined ? corsForBrowsers(c, next) : withAnswerHeaders(c, next, VARY_ORIGIN);
}
