import type { ErrorCode } from '@token-actions/core';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  type ErrorLogger,
  errorHandler,
  type TransportErrors,
  validationHook,
} from '../http/error-handler.js';
import type { BearerPrincipal } from '../oauth/tokens.js';

/** The `rateLimit` object of every swaps body. */
export interface RateLimitInfo {
  readonly limit: number;
  readonly remaining: number;
}

export interface SwapsVariables {
  /** Set for requests bearing an active access token: the wallet, client and scope it speaks for. */
  principal?: BearerPrincipal;
  /** Set by the guard before anything below it runs, so every body can report it. */
  rateLimit?: RateLimitInfo;
}

export type SwapsEnv = { Variables: SwapsVariables };

// biome-ignore lint/suspicious/noExplicitAny: any path and input; only the variables matter here.
type SwapsContext = Context<SwapsEnv, any, any>;

/** The request's rate-limit state; zero before the guard has counted it. */
function rateLimitOf(c: SwapsContext): RateLimitInfo {
  return c.get('rateLimit') ?? { limit: 0, remaining: 0 };
}

/** A success body of the swaps: the route's fields and the request's `rateLimit`. */
function withRateLimit<T extends object>(c: SwapsContext, body: T): T & { rateLimit: RateLimitInfo } {
  return { ...body, rateLimit: rateLimitOf(c) };
}

// Hono does not export the type of `c.json`'s answer; this names it for `okB`'s signature.
declare const json: SwapsContext['json'];
type OkB<T extends object> = ReturnType<typeof json<T & { rateLimit: RateLimitInfo }, 200>>;

// The swaps have always labelled their JSON as UTF-8; every one of their answers keeps the label.
const JSON_UTF8 = 'application/json; charset=UTF-8';

/** The one renderer of swaps success answers: 200 with the body and its `rateLimit`. */
export function okB<T extends object>(c: SwapsContext, body: T): OkB<T> {
  return c.json(withRateLimit(c, body), 200, { 'content-type': JSON_UTF8 });
}

/** The one renderer of swaps errors: the spec's interface B `{code, message, rateLimit}`. */
export function errorB(
  c: SwapsContext,
  status: ContentfulStatusCode,
  code: ErrorCode,
  message: string,
  headers?: Record<string, string>,
) {
  return c.json({ code, message, rateLimit: rateLimitOf(c) }, status, {
    'content-type': JSON_UTF8,
    ...headers,
  });
}

const SWAPS_ERRORS: TransportErrors = {
  render: (c, status, code, message) => errorB(c, status, code, message),
  serverFailure: 'the service could not complete the operation; retry shortly',
  // A failing aggregator is the caller's to know: it may retry, or use the project's pools.
  shownServerStatuses: [502],
  logs: { failed: 'operation failed', unhandled: 'unhandled error' },
};

/** The error handler of the swaps: failed Results thrown by `unwrap`, framework errors, bugs. */
export function swapsErrorHandler(logger: ErrorLogger): ErrorHandler<SwapsEnv> {
  return errorHandler(SWAPS_ERRORS, logger);
}

/** Validation failures of the swaps answer 400 `{code, message, rateLimit}`. */
export const swapsHook = validationHook<SwapsEnv>(SWAPS_ERRORS.render);

/** A path under the swaps' prefixes that no route serves. */
export const notFoundB: NotFoundHandler<SwapsEnv> = (c) =>
  errorB(c, 404, 'INVALID_INPUT', `no route for ${c.req.method} ${c.req.path}`);
