import type { ClockPort, ErrorCode, OAuthScope, OAuthStore, RateLimiterPort } from '@token-actions/core';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type BearerPrincipal, resolveAccessToken } from '../oauth/tokens.js';

/** The `rateLimit` object of every interface B body. */
export interface RateLimitInfo {
  readonly limit: number;
  readonly remaining: number;
}

export interface InterfaceBVariables {
  /** Set for requests bearing an active access token: the wallet, client and scope it speaks for. */
  principal?: BearerPrincipal;
  rateLimit?: RateLimitInfo;
}

export type InterfaceBEnv = { Variables: InterfaceBVariables };

export interface InterfaceBGuardDeps {
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

export interface InterfaceBGuard {
  /** Mount first on every interface B route: resolves the bearer token (401 for a bad one), counts
   * the request (429 when spent), sets the RateLimit headers, and adds `rateLimit` to every JSON
   * body below it, errors included. Non-JSON errors are turned into `{code, message, rateLimit}`. */
  readonly rateLimit: MiddlewareHandler<InterfaceBEnv>;
  /** 401 without a token, 403 `insufficient_scope` without `scope` (RFC 6750 section 3.1). */
  requireScope(scope: OAuthScope): MiddlewareHandler<InterfaceBEnv>;
}

const WINDOW_MS = 60_000;

function nodeRemoteAddress(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}

/** Quoted-string for an auth-param value (RFC 9110 section 5.6.4). */
const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

export function createInterfaceBGuard(deps: InterfaceBGuardDeps): InterfaceBGuard {
  const realm = deps.realm ?? 'token-actions';
  const addressOf = deps.addressOf ?? nodeRemoteAddress;

  function errorBody(
    c: Context,
    status: ContentfulStatusCode,
    code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
  ) {
    const rateLimit = (c.get('rateLimit') as RateLimitInfo | undefined) ?? { limit: 0, remaining: 0 };
    return c.json({ code, message, rateLimit }, status, headers);
  }

  function challenge(params: Record<string, string | undefined>): string {
    const parts = Object.entries({ realm, ...params })
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([key, value]) => `${key}=${quoted(value)}`);
    return `Bearer ${parts.join(', ')}`;
  }

  /** Adds `rateLimit` to the JSON body the inner handlers produced (or makes one for a bare error). */
  async function envelope(c: Context, info: RateLimitInfo) {
    const res = c.res;
    const type = res.headers.get('content-type') ?? '';
    let body: unknown;
    if (/^application\/([\w.+-]+\+)?json/i.test(type)) {
      try {
        body = JSON.parse(await res.clone().text());
      } catch {
        body = undefined;
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        if (res.status < 400) return;
        body = { code: 'INTERNAL', message: 'the response could not be produced' };
      } else if (res.status >= 400 && typeof (body as { code?: unknown }).code !== 'string') {
        // An error rendered outside interface B's routes (malformed JSON, an unknown path) is
        // {message}; interface B's errors also carry a code.
        body = { code: res.status >= 500 ? 'INTERNAL' : 'INVALID_INPUT', ...(body as object) };
      }
    } else if (res.status >= 400) {
      body =
        res.status >= 500
          ? { code: 'INTERNAL', message: 'internal error' }
          : {
              code: 'INVALID_INPUT',
              message: res.status === 404 ? 'no such route' : 'the request was rejected',
            };
    } else {
      return;
    }
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    headers.set('content-type', 'application/json; charset=UTF-8');
    c.res = undefined;
    c.res = new Response(JSON.stringify({ ...(body as object), rateLimit: info }), {
      status: res.status,
      headers,
    });
  }

  const rateLimit: MiddlewareHandler<InterfaceBEnv> = async (c, next) => {
    const now = deps.clock.now();
    const authorization = c.req.header('authorization')?.trim();
    let principal: BearerPrincipal | undefined;
    let tokenProblem: string | undefined;
    // RFC 6750 section 3.1: only a Bearer credential is ours to judge; anything else is "no token".
    if (authorization && /^Bearer(\s|$)/i.test(authorization)) {
      const token = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization)?.[1];
      if (!token) {
        tokenProblem = 'the bearer token is malformed';
      } else {
        const resolved = await resolveAccessToken(deps.store, token, now);
        if (resolved.isErr()) {
          c.set('rateLimit', { limit: deps.limits.perAddressPerMinute, remaining: 0 });
          return errorBody(c, 503, 'STORE_UNAVAILABLE', 'token verification is unavailable, retry shortly');
        }
        principal = resolved.value ?? undefined;
        if (!principal) tokenProblem = 'the access token is invalid, expired or revoked';
      }
    }

    const policy = principal ? 'client' : 'address';
    const limit = principal ? deps.limits.perClientPerMinute : deps.limits.perAddressPerMinute;
    const key = principal ? `client:${principal.clientId}` : `address:${addressOf(c) ?? 'unknown'}`;
    const decided = await deps.rateLimiter.hit(key, limit, WINDOW_MS);
    if (decided.isErr()) {
      // Fails closed: without a counter the limit cannot be kept.
      c.set('rateLimit', { limit, remaining: 0 });
      return errorBody(c, 503, 'STORE_UNAVAILABLE', 'rate limiting is unavailable, retry shortly');
    }
    const decision = decided.value;
    const info: RateLimitInfo = { limit, remaining: decision.remaining };
    const resetSec = Math.max(1, Math.ceil(decision.resetMs / 1000));
    c.set('rateLimit', info);
    const rateHeaders = {
      'RateLimit-Policy': `"${policy}";q=${limit};w=${WINDOW_MS / 1000}`,
      RateLimit: `"${policy}";r=${decision.remaining};t=${resetSec}`,
    };
    for (const [name, value] of Object.entries(rateHeaders)) c.header(name, value);

    if (!decision.allowed) {
      return errorBody(
        c,
        429,
        'RATE_LIMITED',
        `rate limit of ${limit} requests a minute reached; retry in ${resetSec} s`,
        {
          'Retry-After': String(resetSec),
        },
      );
    }
    if (tokenProblem) {
      return errorBody(c, 401, 'INVALID_TOKEN', tokenProblem, {
        'WWW-Authenticate': challenge({ error: 'invalid_token', error_description: tokenProblem }),
      });
    }
    if (principal) c.set('principal', principal);
    await next();
    await envelope(c, info);
    for (const [name, value] of Object.entries(rateHeaders)) c.res.headers.set(name, value);
  };

  function requireScope(scope: OAuthScope): MiddlewareHandler<InterfaceBEnv> {
    return async (c, next) => {
      const principal = c.get('principal');
      if (!principal) {
        // RFC 6750 section 3.1: a request without credentials gets a challenge without an error code.
        return errorBody(c, 401, 'INVALID_TOKEN', 'a bearer access token is required', {
          'WWW-Authenticate': challenge({ scope }),
        });
      }
      if (!principal.scope.includes(scope)) {
        const message = `this operation needs the ${scope} scope`;
        return errorBody(c, 403, 'INSUFFICIENT_SCOPE', message, {
          'WWW-Authenticate': challenge({ error: 'insufficient_scope', error_description: message, scope }),
        });
      }
      await next();
    };
  }

  return { rateLimit, requireScope };
}

/** The principal of a request that passed `requireScope`. */
export function principalOf(c: Context): BearerPrincipal {
  const principal = c.get('principal') as BearerPrincipal | undefined;
  if (!principal) throw new Error('principalOf used on a route without requireScope');
  return principal;
}
