import type { ClockPort, OAuthScope, OAuthStore, RateLimiterPort } from '@token-actions/core';
import type { Context, MiddlewareHandler } from 'hono';
import { nodeRemoteAddress } from '../http/remote-address.js';
import { withAnswerHeaders } from '../http/security-headers.js';
import { type BearerPrincipal, resolveAccessToken } from '../oauth/tokens.js';
import { errorB, type RateLimitInfo, type SwapsEnv } from './render.js';

export interface SwapsGuardDeps {
  readonly store: OAuthStore;
  readonly rateLimiter: RateLimiterPort;
  readonly clock: ClockPort;
  readonly limits: {
    /** Requests a minute for all tokens of one OAuth client together. */
    readonly perClientPerMinute: number;
    /** Requests a minute from one client address without a valid token. */
    readonly perAddressPerMinute: number;
  };
  /** `realm` of the WWW-Authenticate challenges. */
  readonly realm?: string;
  /** The caller's address for unauthenticated limits. Default: the socket's remote address on
   * @hono/node-server; pass one that reads a trusted proxy header when behind a proxy. */
  readonly addressOf?: (c: Context) => string | undefined;
}

export interface SwapsGuard {
  /** Mount first on every swaps route: resolves the bearer token (401 for a bad one), counts
   * the request (429 when spent), sets the RateLimit headers on the response, and puts the
   * `rateLimit` state in the context for the bodies built below it. */
  readonly rateLimit: MiddlewareHandler<SwapsEnv>;
  /** 401 without a token, 403 `insufficient_scope` without `scope` (RFC 6750 section 3.1). */
  requireScope(scope: OAuthScope): MiddlewareHandler<SwapsEnv>;
}

const WINDOW_MS = 60_000;

/** Quoted-string for an auth-param value (RFC 9110 section 5.6.4). */
const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

/** What a request's Authorization header says of its caller. */
type Bearer =
  | { readonly kind: 'none' }
  | { readonly kind: 'valid'; readonly principal: BearerPrincipal }
  | { readonly kind: 'invalid'; readonly problem: string }
  | { readonly kind: 'unavailable' };

/** RFC 6750 section 3.1: only a Bearer credential is ours to judge; anything else is "no token". */
async function readBearer(store: OAuthStore, header: string | undefined, now: Date): Promise<Bearer> {
  const authorization = header?.trim();
  if (!authorization || !/^Bearer(\s|$)/i.test(authorization)) return { kind: 'none' };
  const token = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization)?.[1];
  if (!token) return { kind: 'invalid', problem: 'the bearer token is malformed' };
  const resolved = await resolveAccessToken(store, token, now);
  if (resolved.isErr()) return { kind: 'unavailable' };
  return resolved.value
    ? { kind: 'valid', principal: resolved.value }
    : { kind: 'invalid', problem: 'the access token is invalid, expired or revoked' };
}

export function createSwapsGuard(deps: SwapsGuardDeps): SwapsGuard {
  const realm = deps.realm ?? 'token-actions';
  const addressOf = deps.addressOf ?? nodeRemoteAddress;

  function challenge(params: Record<string, string | undefined>): string {
    const parts = Object.entries({ realm, ...params })
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([key, value]) => `${key}=${quoted(value)}`);
    return `Bearer ${parts.join(', ')}`;
  }

  const rateLimit: MiddlewareHandler<SwapsEnv> = async (c, next) => {
    const bearer = await readBearer(deps.store, c.req.header('authorization'), deps.clock.now());
    if (bearer.kind === 'unavailable') {
      c.set('rateLimit', { limit: deps.limits.perAddressPerMinute, remaining: 0 });
      return errorB(c, 503, 'STORE_UNAVAILABLE', 'token verification is unavailable, retry shortly');
    }
    const principal = bearer.kind === 'valid' ? bearer.principal : undefined;
    const policy = principal ? 'client' : 'address';
    const limit = principal ? deps.limits.perClientPerMinute : deps.limits.perAddressPerMinute;
    const key = principal ? `client:${principal.clientId}` : `address:${addressOf(c) ?? 'unknown'}`;
    const decided = await deps.rateLimiter.hit(key, limit, WINDOW_MS);
    if (decided.isErr()) {
      // Fails closed: without a counter the limit cannot be kept.
      c.set('rateLimit', { limit, remaining: 0 });
      return errorB(c, 503, 'STORE_UNAVAILABLE', 'rate limiting is unavailable, retry shortly');
    }
    const decision = decided.value;
    const info: RateLimitInfo = { limit, remaining: decision.remaining };
    const resetSec = Math.max(1, Math.ceil(decision.resetMs / 1000));
    c.set('rateLimit', info);
    const rateHeaders = {
      'RateLimit-Policy': `"${policy}";q=${limit};w=${WINDOW_MS / 1000}`,
      RateLimit: `"${policy}";r=${decision.remaining};t=${resetSec}`,
    };
    if (!decision.allowed) {
      const message = `rate limit of ${limit} requests a minute reached; retry in ${resetSec} s`;
      return errorB(c, 429, 'RATE_LIMITED', message, { ...rateHeaders, 'Retry-After': String(resetSec) });
    }
    if (bearer.kind === 'invalid') {
      return errorB(c, 401, 'INVALID_TOKEN', bearer.problem, {
        ...rateHeaders,
        'WWW-Authenticate': challenge({ error: 'invalid_token', error_description: bearer.problem }),
      });
    }
    if (principal) c.set('principal', principal);
    // Whatever answers below (a handler, the error handler, a 404) carries the headers.
    return withAnswerHeaders(c, next, rateHeaders);
  };

  function requireScope(scope: OAuthScope): MiddlewareHandler<SwapsEnv> {
    return async (c, next) => {
      const principal = c.get('principal');
      if (!principal) {
        // RFC 6750 section 3.1: a request without credentials gets a challenge without an error code.
        return errorB(c, 401, 'INVALID_TOKEN', 'a bearer access token is required', {
          'WWW-Authenticate': challenge({ scope }),
        });
      }
      if (!principal.scope.includes(scope)) {
        const message = `this operation needs the ${scope} scope`;
        return errorB(c, 403, 'INSUFFICIENT_SCOPE', message, {
          'WWW-Authenticate': challenge({ error: 'insufficient_scope', error_description: message, scope }),
        });
      }
      await next();
    };
  }

  return { rateLimit, requireScope };
}

/** The principal of a request that passed `requireScope`. */
// biome-ignore lint/suspicious/noExplicitAny: any path and input; only the variables matter here.
export function principalOf(c: Context<SwapsEnv, any, any>): BearerPrincipal {
  const principal = c.get('principal');
  if (!principal) throw new Error('principalOf used on a route without requireScope');
  return principal;
}
