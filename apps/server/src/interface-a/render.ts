import type { Hook, OpenAPIHono } from '@hono/zod-openapi';
import { type DomainError, isDomainError } from '@token-actions/core';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AuthVariables } from '../http/auth.js';
import { DomainHttpError, statusOf } from '../http/errors.js';
import { requestLogger } from '../http/request-context.js';
import { describeIssues } from '../http/validation.js';
import type { Logger } from '../logger.js';

export type InterfaceAEnv = { Variables: AuthVariables };
export type InterfaceAApp = OpenAPIHono<InterfaceAEnv>;

/** The one renderer of interface A errors (and of the public routes): `{message}`. */
export function errorA(
  // biome-ignore lint/suspicious/noExplicitAny: any env, path and input; it only writes the body.
  c: Context<any, any, any>,
  status: ContentfulStatusCode,
  message: string,
  headers?: Record<string, string>,
) {
  return c.json({ message }, status, headers);
}

/** Server-side failures are reported without internals; the detail goes to the log only. */
export function publicMessage(error: DomainError): string {
  return statusOf(error.code) >= 500
    ? 'the service could not complete the operation; it is safe to retry with the same Idempotency-Key'
    : error.message;
}

/** The one error handler of interface A: failed Results thrown by `unwrap`, framework errors, bugs.
 * The root app uses it too, so the public routes answer in the same shape. */
export function interfaceAErrorHandler(logger: Logger): ErrorHandler {
  return (error, c) => {
    if (error instanceof DomainHttpError || isDomainError(error)) {
      const domain = error instanceof DomainHttpError ? error.error : error;
      const status = statusOf(domain.code);
      if (status >= 500)
        requestLogger(c, logger).error(
          { code: domain.code, context: domain.context, cause: String(domain.cause ?? '') },
          'operation failed',
        );
      return errorA(c, status, publicMessage(domain));
    }
    if (error instanceof HTTPException) {
      const message =
        error.status === 400 ? `invalid request: ${error.message || 'malformed body'}` : error.message;
      return errorA(c, error.status, message);
    }
    requestLogger(c, logger).error({ err: error }, 'unhandled error');
    return errorA(c, 500, 'internal server error');
  };
}

/** Validation failures of interface A answer 400 `{message}`. */
export const interfaceAHook: Hook<unknown, InterfaceAEnv, string, unknown> = (result, c) => {
  if (!result.success) {
    return errorA(c, 400, `invalid request: ${describeIssues(result.error.issues)}`);
  }
};

export const notFoundA: NotFoundHandler = (c) => errorA(c, 404, `no route for ${c.req.method} ${c.req.path}`);
