import type { Hook } from '@hono/zod-openapi';
import { type DomainError, type ErrorCode, isDomainError } from '@token-actions/core';
import type { Context, Env, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainHttpError, statusOf } from './errors.js';
import { requestLogger } from './request-context.js';
import { describeIssues } from './validation.js';

/**
 * Writes one error answer in a transport's shape: payments `{message, code}`, swaps
 * `{code, message, rateLimit}`, admin `{code, message}`, blinks `{message}`. A shape without a
 * code ignores `code`.
 */
export type ErrorRenderer = (
  // biome-ignore lint/suspicious/noExplicitAny: any env, path and input; it only writes the body.
  c: Context<any, any, any>,
  status: ContentfulStatusCode,
  code: ErrorCode,
  message: string,
) => Response;

/** Pino-compatible: fields first, then the message. */
export interface ErrorLogger {
  error(fields: Record<string, unknown>, message: string): void;
}

/** What tells one transport's error answers from another's; the decisions are the same for all. */
export interface TransportErrors {
  readonly render: ErrorRenderer;
  /** What the caller reads instead of a server failure's own message, which may carry internals. */
  readonly serverFailure: string;
  /** Server statuses whose message is the caller's to read (the swaps' 502: the aggregator failed). */
  readonly shownServerStatuses?: readonly number[];
  /** The log lines of a failed operation and of a bug. */
  readonly logs: { readonly failed: string; readonly unhandled: string };
}

/** A failed Result thrown by `unwrap`, or a domain error thrown as it is. */
function domainErrorOf(error: Error): DomainError | undefined {
  if (error instanceof DomainHttpError) return error.error;
  return isDomainError(error) ? error : undefined;
}

/**
 * The one error handler of every transport, given its renderer: a failed Result answers its
 * code's status (a server failure is logged, and shown without internals unless its status is
 * one the caller is meant to read), a framework refusal (a malformed body) answers its own
 * status, and anything else is a bug: logged, and answered 500 without its message.
 */
export function errorHandler<E extends Env>(
  transport: TransportErrors,
  logger: ErrorLogger,
): ErrorHandler<E> {
  const { render, logs } = transport;
  const shown = transport.shownServerStatuses ?? [];
  return (error, c) => {
    const domain = domainErrorOf(error);
    if (domain) {
      const status = statusOf(domain.code);
      if (status < 500) return render(c, status, domain.code, domain.message);
      requestLogger(c, logger).error(
        {
          code: domain.code,
          context: domain.context,
          path: c.req.path,
          ...(domain.cause === undefined ? {} : { cause: String(domain.cause) }),
        },
        logs.failed,
      );
      return shown.includes(status)
        ? render(c, status, domain.code, domain.message)
        : render(c, status, 'INTERNAL', transport.serverFailure);
    }
    if (error instanceof HTTPException) {
      const message =
        error.status === 400 ? `invalid request: ${error.message || 'malformed body'}` : error.message;
      return render(c, error.status, error.status >= 500 ? 'INTERNAL' : 'INVALID_INPUT', message);
    }
    requestLogger(c, logger).error({ err: error, path: c.req.path }, logs.unhandled);
    return render(c, 500, 'INTERNAL', 'internal server error');
  };
}

/** Validation failures of every transport answer 400 `INVALID_INPUT`, naming the fields and rules. */
export function validationHook<E extends Env>(render: ErrorRenderer): Hook<unknown, E, string, unknown> {
  return (result, c) => {
    if (!result.success) {
      return render(c, 400, 'INVALID_INPUT', `invalid request: ${describeIssues(result.error.issues)}`);
    }
  };
}
