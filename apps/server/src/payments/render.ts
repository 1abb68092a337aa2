import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ErrorCode } from '@token-actions/core';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AuthVariables } from '../http/auth.js';
import {
  type ErrorLogger,
  errorHandler,
  type TransportErrors,
  validationHook,
} from '../http/error-handler.js';

export type PaymentsEnv = { Variables: AuthVariables };
export type PaymentsApp = OpenAPIHono<PaymentsEnv>;

/**
 * The one renderer of payments errors (and of the public routes): the spec's `{message}`, and
 * next to it the stable `code` interface B and the admin API answer with (additive: the spec's
 * field is unchanged).
 */
export function errorA(
  // biome-ignore lint/suspicious/noExplicitAny: any env, path and input; it only writes the body.
  c: Context<any, any, any>,
  status: ContentfulStatusCode,
  code: ErrorCode,
  message: string,
  headers?: Record<string, string>,
) {
  return c.json({ message, code }, status, headers);
}

const PAYMENTS_ERRORS: TransportErrors = {
  render: (c, status, code, message) => errorA(c, status, code, message),
  serverFailure:
    'the service could not complete the operation; it is safe to retry with the same Idempotency-Key',
  logs: { failed: 'operation failed', unhandled: 'unhandled error' },
};

/**
 * The error handler of payments: failed Results thrown by `unwrap`, framework errors, bugs. The
 * root app uses it too, so the public routes (health, docs, unknown paths) answer in this shape.
 */
export function paymentsErrorHandler(logger: ErrorLogger): ErrorHandler {
  return errorHandler(PAYMENTS_ERRORS, logger);
}

/** Validation failures of payments answer 400 `{message, code}`. */
export const paymentsHook = validationHook<PaymentsEnv>(PAYMENTS_ERRORS.render);

export const notFoundA: NotFoundHandler = (c) =>
  errorA(c, 404, 'INVALID_INPUT', `no route for ${c.req.method} ${c.req.path}`);
