import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ErrorCode } from '@token-actions/core';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorHandler, type TransportErrors, validationHook } from '../http/error-handler.js';

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

const ADMIN_ERRORS: TransportErrors = {
  render: (c, status, code, message) => errorAdmin(c, status, code, message),
  serverFailure: 'the service could not complete the operation; retry shortly',
  logs: { failed: 'admin operation failed', unhandled: 'unhandled admin error' },
};

/** The error handler of the admin API: failed Results thrown by `unwrap`, framework errors, bugs. */
export function adminErrorHandler(logger: AdminLogger): ErrorHandler {
  return errorHandler(ADMIN_ERRORS, logger);
}

/** Validation failures answer 400 `{code, message}`. */
export const adminHook = validationHook<object>(ADMIN_ERRORS.render);

export const notFoundAdmin: NotFoundHandler = (c) =>
  errorAdmin(c, 404, 'INVALID_INPUT', `no route for ${c.req.method} ${c.req.path}`);
