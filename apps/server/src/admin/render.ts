import type { Hook, OpenAPIHono } from '@hono/zod-openapi';
import { type ErrorCode, isDomainError } from '@token-actions/core';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainHttpError, statusOf } from '../http/errors.js';
import { describeIssues } from '../http/validation.js';

export type AdminApp = OpenAPIHono;

/** Pino-compatible: fields first, then the message. */
export interface AdminLogger {
  error(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

/**
 * The one renderer of admin API errors: `{code, message}`. Operators script against it, so the
 * code is there to branch on; server failures carry no internals.
 */
export function errorAdmin(
  // biome-ignore lint/suspicious/noExplicitAny: any env, path and input; it only writes the body.
  c: Context<any, any, any>,
  status: ContentfulStatusCode,
  code: ErrorCode,
  message: string,
  headers?: Record<string, string>,
) {
  return c.json({ code, message }, status, headers);
}

/** The one error handler of the admin API: failed Results thrown by `unwrap`, framework errors, bugs. */
export function adminErrorHandler(logger: AdminLogger): ErrorHandler {
  return (error, c) => {
    if (error instanceof DomainHttpError || isDomainError(error)) {
      const domain = error instanceof DomainHttpError ? error.error : error;
      const status = statusOf(domain.code);
      if (status >= 500) {
        logger.error(
          { code: domain.code, context: domain.context, path: c.req.path },
          'admin operation failed',
        );
        return errorAdmin(
          c,
          status,
          'INTERNAL',
          'the service could not complete the operation; retry shortly',
        );
      }
      return errorAdmin(c, status, domain.code, domain.message);
    }
    if (error instanceof HTTPException) {
      const message =
        error.status === 400 ? `invalid request: ${error.message || 'malformed body'}` : error.message;
      return errorAdmin(c, error.status, error.status >= 500 ? 'INTERNAL' : 'INVALID_INPUT', message);
    }
    logger.error({ err: error }, 'unhandled admin error');
    return errorAdmin(c, 500, 'INTERNAL', 'internal server error');
  };
}

/** Validation failures answer 400 `{code, message}`. */
export const adminHook: Hook<unknown, object, string, unknown> = (result, c) => {
  if (!result.success) {
    return errorAdmin(c, 400, 'INVALID_INPUT', `invalid request: ${describeIssues(result.error.issues)}`);
  }
};

export const notFoundAdmin: NotFoundHandler = (c) =>
  errorAdmin(c, 404, 'INVALID_INPUT', `no route for ${c.req.method} ${c.req.path}`);
