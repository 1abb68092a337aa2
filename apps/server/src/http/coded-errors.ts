import type { Hook } from '@hono/zod-openapi';
import { type ErrorCode, isDomainError } from '@token-actions/core';
import type { Context, Env, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainHttpError, statusOf } from './errors.js';
import { requestLogger } from './request-context.js';
import { describeIssues } from './validation.js';

/** Writes one error body of a transport whose errors carry a `code` (interface B, the admin API). */
export type CodedErrorRenderer = (
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

export interface CodedErrorHandlerOptions {
  readonly render: CodedErrorRenderer;
  readonly logger: ErrorLogger;
  /** The log lines of a failed operation and of a bug. */
  readonly logs: { readonly failed: string; readonly unhandled: string };
  /** Server statuses whose domain message is the caller's to read (interface B: 502, the aggregator). */
  readonly shownServerStatuses?: readonly number[];
}

/**
 * The error handler of a coded transport: failed Results thrown by `unwrap` with their code and
 * status (server failures logged, and shown without internals), framework errors, bugs.
 */
export function codedErrorHandler<E extends Env>(options: CodedErrorHandlerOptions): ErrorHandler<E> {
  const { render, logger, logs } = options;
  const shown = options.shownServerStatuses ?? [];
  return (error, c) => {
    if (error instanceof DomainHttpError || isDomainError(error)) {
      const domain = error instanceof DomainHttpError ? error.error : error;
      const status = statusOf(domain.code);
      if (status >= 500) {
        requestLogger(c, logger).error(
          { code: domain.code, context: domain.context, path: c.req.path },
          logs.failed,
        );
        if (!shown.includes(status)) {
          return render(c, status, 'INTERNAL', 'the service could not complete the operation; retry shortly');
        }
      }
      return render(c, status, domain.code, domain.message);
    }
    if (error instanceof HTTPException) {
      const message =
        error.status === 400 ? `invalid request: ${error.message || 'malformed body'}` : error.message;
      return render(c, error.status, error.status >= 500 ? 'INTERNAL' : 'INVALID_INPUT', message);
    }
    requestLogger(c, logger).error({ err: error }, logs.unhandled);
    return render(c, 500, 'INTERNAL', 'internal server error');
  };
}

/** Validation failures of a coded transport answer 400 `INVALID_INPUT` naming the issues. */
export function codedValidationHook<E extends Env>(
  render: CodedErrorRenderer,
): Hook<unknown, E, string, unknown> {
  return (result, c) => {
    if (!result.success) {
      return render(c, 400, 'INVALID_INPUT', `invalid request: ${describeIssues(result.error.issues)}`);
    }
  };
}
