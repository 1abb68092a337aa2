import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { forBodies, limitBody } from '../http/body-limit.js';
import { claimErrors } from '../http/error-claims.js';
import type { ErrorLogger } from '../http/error-handler.js';
import { rejectDuplicateJsonKeys } from '../http/json-duplicates.js';
import type { SwapsGuard } from './guard.js';
import { errorB, notFoundB, type SwapsEnv, swapsErrorHandler, swapsHook } from './render.js';

/** The prefixes of the swaps (interface B); payments share `/v1` and must stay outside the guard. */
export const SWAPS_PREFIXES = ['/v1/project', '/v1/aggregator', '/v1/swap', '/v1/webhooks'] as const;

export type SwapsApp = OpenAPIHono<SwapsEnv>;

export interface GuardedAppOptions {
  readonly guard: SwapsGuard;
  readonly logger: ErrorLogger;
  /** Request bodies over this answer 413 (`MAX_BODY_BYTES`, as on payments). */
  readonly maxBodyBytes: number;
  /** Paths whose bodies may be larger (or must be smaller), by exact path. */
  readonly bodyLimits?: Readonly<Record<string, number>>;
  /** Default: SWAPS_PREFIXES. */
  readonly prefixes?: readonly string[];
  /**
   * `claimed`: the app sets no `onError`; the root it is mounted in answers errors through
   * `claimedErrors`, which finds the swaps' pipeline claimed by the guard (see error-claims.ts).
   * Default `own`: the app handles its errors itself (standalone use).
   */
  readonly errors?: 'own' | 'claimed';
}

/**
 * The swaps' transport (interface B) as a sub-app with its one error pipeline: the guard in front
 * of every path under its prefixes, then the body limit (after the guard, so a 413 reports the rate limit like every answer,
 * and a request without a valid token is refused before its body is looked at), one validation
 * hook, one error handler and a 404 of its own, all rendered by `errorB`.
 * `register` adds the routes; the 404 is added after them so it only answers what they do not.
 */
export function createGuardedApp(options: GuardedAppOptions, register: (app: SwapsApp) => void): SwapsApp {
  const prefixes = options.prefixes ?? SWAPS_PREFIXES;
  const app: SwapsApp = new OpenAPIHono<SwapsEnv>({ defaultHook: swapsHook });
  const errors = swapsErrorHandler(options.logger);
  if (options.errors !== 'claimed') app.onError(errors);
  // The guard comes first, so it claims the request for the swaps' error pipeline before
  // anything below it can fail.
  const guard: MiddlewareHandler<SwapsEnv> = (c, next) => {
    claimErrors(c, errors);
    return options.guard.rateLimit(c, next);
  };
  // `/prefix/*` also matches the bare prefix, so the guard counts each request once.
  for (const prefix of prefixes) app.use(`${prefix}/*`, guard);
  const limitTo = (maxSize: number) =>
    limitBody<SwapsEnv>({
      maxSize,
      // The rest of an oversized body is never read, so the connection cannot carry another request.
      onError: (c) =>
        errorB(c, 413, 'INVALID_INPUT', `request body exceeds ${maxSize} bytes`, { connection: 'close' }),
    });
  const generic = limitTo(options.maxBodyBytes);
  const byPath = new Map(Object.entries(options.bodyLimits ?? {}).map(([path, max]) => [path, limitTo(max)]));
  const limit: MiddlewareHandler<SwapsEnv> = (c, next) => (byPath.get(c.req.path) ?? generic)(c, next);
  const bodyChecks = forBodies(every(limit, rejectDuplicateJsonKeys));
  for (const prefix of prefixes) app.use(`${prefix}/*`, bodyChecks);
  register(app);
  for (const prefix of prefixes) app.all(`${prefix}/*`, notFoundB);
  return app;
}
