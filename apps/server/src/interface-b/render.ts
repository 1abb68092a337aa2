import type { Hook } from '@hono/zod-openapi';
import { type DomainError, type ErrorCode, isDomainError } from '@token-actions/core';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainHttpError, statusOf } from '../http/errors.js';
import { describeIssues } from '../http/validation.js';
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

/** Pino-compatible: fields first, then the message. */
export interface ErrorLogger {
  error(fields: Record<string, unknown>, message: string): void;
}

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

/** A domain error as interface B shows it: server failures never carry internals (a failing
 * aggregator, 502, is the caller's to know about). */
function domainErrorB(c: BContext, error: DomainError) {
  const status = statusOf(error.code);
  const hidden = status >= 500 && status !== 502;
  return hidden
    ? errorB(c, status, 'INTERNAL', 'the service could not complete the operation; retry shortly')
    : errorB(c, status, error.code, error.message);
}

/** The one error handler of interface B: failed Results thrown by `unwrap`, framework errors, bugs. */
export function interfaceBErrorHandler(logger: ErrorLogger): ErrorHandler<InterfaceBEnv> {
  return (error, c) => {
    if (error instanceof DomainHttpError || isDomainError(error)) {
      const domain = error instanceof DomainHttpError ? error.error : error;
      if (statusOf(domain.code) >= 500)
        logger.error({ code: domain.code, context: domain.context, path: c.req.path }, 'operation failed');
      return domainErrorB(c, domain);
    }
    if (error instanceof HTTPException) {
      const message =
        error.status === 400 ? `invalid request: ${error.message || 'malformed body'}` : error.message;
      return errorB(c, error.status, error.status >= 500 ? 'INTERNAL' : 'INVALID_INPUT', message);
    }
    logger.error({ err: error }, 'unhandled error');
    return errorB(c, 500, 'INTERNAL', 'internal server error');
  };
}

/** Validation failures of interface B answer 400 `{code, message, rateLimit}`. */
export const interfaceBHook: Hook<unknown, InterfaceBEnv, string, unknown> = (result, c) => {
  if (!result.success) {
    return errorB(c, 400, 'INVALID_INPUT', `invalid request: ${describeIssues(result.error.issues)}`);
  }
};

/** A path under interface B's prefixes that no route serves. */
export const notFoundB: NotFoundHandler<InterfaceBEnv> = (c) =>
  errorB(c, 404, 'INVALID_INPUT', `no route for ${c.req.method} ${c.req.path}`);
