import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ErrorCode } from '@token-actions/core';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { codedErrorHandler, codedValidationHook } from '../http/coded-errors.js';

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
  return codedErrorHandler({
    render: errorAdmin,
    logger,
    logs: { failed: 'admin operation failed', unhandled: 'unhandled admin error' },
  });
}

/** Validation failures answer 400 `{code, message}`. */
export const adminHook = codedValidationHook<object>(errorAdmin);

export const notFoundAdmin: NotFoundHandler = (c) =>
  errorAdmin(c, 404, 'INVALID_INPUT', `no route for ${c.req.method} ${c.req.path}`);
