import type { ErrorCode } from '@token-actions/core';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { codedErrorHandler, codedValidationHook, type ErrorLogger } from '../http/coded-errors.js';
import type { BearerPrincipal } from '../oauth/tokens.js';

/** The `rateLimit` object of every interface B body. */
export interface RateLimitInfo {
  readonly limit: number;
  readonly remaining: number;
}

export interface InterfaceBVariables {
  /** Set for requests bearing an active access token: the wallet, client and scope it speaks for. */
  principal?: BearerPrincipal;
  /** Set by the guard before anything below it runs, so every body can report it. */
  rateLimit?: RateLimitInfo;
}

export type InterfaceBEnv = { Variables: InterfaceBVariables };

// biome-ignore lint/suspicious/noExplicitAny: any path and input; only the variables matter here.
type BContext = Context<InterfaceBEnv, any, any>;

export type { ErrorLogger } from '../http/coded-errors.js';

/** The request's rate-limit state; zero before the guard has counted it. */
function rateLimitOf(c: BContext): RateLimitInfo {
  return c.get('rateLimit') ?? { limit: 0, remaining: 0 };
}

/** A success body of interface B: the route's fields and the request's `rateLimit`. */
function withRateLimit<T extends object>(c: BContext, body: T): T & { rateLimit: RateLimitInfo } {
  return { ...body, rateLimit: rateLimitOf(c) };
}

// Hono does not export the type of `c.json`'s answer; this names it for `okB`'s signature.
declare const json: BContext['json'];
type OkB<T extends object> = ReturnType<typeof json<T & { rateLimit: RateLimitInfo }, 200>>;

// Interface B has always labelled its JSON as UTF-8; every one of its answers keeps the label.
const JSON_UTF8 = 'application/json; charset=UTF-8';

/** The one renderer of interface B success answers: 200 with the body and its `rateLimit`. */
export function okB<T extends object>(c: BContext, body: T): OkB<T> {
  return c.json(withRateLimit(c, body), 200, { 'content-type': JSON_UTF8 });
}

/** The one renderer of interface B errors: `{code, message, rateLimit}`. */
export function errorB(
  c: BContext,
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

/** The one error handler of interface B: failed Results thrown by `unwrap`, framework errors, bugs.
 * Server failures never carry internals, except a failing aggregator (502), the caller's to know. */
export function interfaceBErrorHandler(logger: ErrorLogger): ErrorHandler<InterfaceBEnv> {
  return codedErrorHandler({
    render: errorB,
    logger,
    logs: { failed: 'operation failed', unhandled: 'unhandled error' },
    shownServerStatuses: [502],
  });
}

/** Validation failures of interface B answer 400 `{code, message, rateLimit}`. */
export const interfaceBHook = codedValidationHook<InterfaceBEnv>(errorB);

/** A path under interface B's prefixes that no route serves. */
export const notFoundB: NotFoundHandler<InterfaceBEnv> = (c) =>
  errorB(c, 404, 'INVALID_INPUT', `no route for ${c.req.method} ${c.req.path}`);
