import type { components } from './generated/openapi.js';

/** Interface B's window: requests a minute and what is left of the current one. */
export type RateLimit = components['schemas']['RateLimit'];

/** The service's stable codes (interface A, B and admin) and OAuth's `error` values (RFC 6749 5.2). */
export type ErrorCode =
  | components['schemas']['ErrorCode']
  | components['schemas']['OAuthError']['error']
  // Codes added to the service after this client was generated still reach the caller.
  | (string & {});

/**
 * Any answer outside 2xx. Each transport has its own body (interface A `{message}`, interface B
 * and admin `{code, message}`, OAuth `{error, error_description}`, Actions `{message}`); the fields
 * here are read from whichever it is, and `body` keeps the body as it came.
 */
export class TokenActionsError extends Error {
  override readonly name = 'TokenActionsError';
  readonly status: number;
  readonly code: ErrorCode | undefined;
  readonly body: unknown;
  /** Interface B's `rateLimit` from the error body, when the answer had one. */
  readonly rateLimit: RateLimit | undefined;
  /** `Retry-After` in seconds (429 and 503), when the answer had one. */
  readonly retryAfterSeconds: number | undefined;
  /** The service's `X-Request-Id`, to quote when asking about this failure. */
  readonly requestId: string | undefined;

  constructor(init: {
    status: number;
    message: string;
    code?: ErrorCode | undefined;
    body?: unknown;
    rateLimit?: RateLimit | undefined;
    retryAfterSeconds?: number | undefined;
    requestId?: string | undefined;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.body = init.body;
    this.rateLimit = init.rateLimit;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.requestId = init.requestId;
  }
}

/** The error for `response`, whose body openapi-fetch has already read (JSON when it parsed, else text). */
export function errorFromResponse(response: Response, body: unknown): TokenActionsError {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const message =
    stringField(fields, 'message') ??
    stringField(fields, 'error_description') ??
    (typeof body === 'string' && body.length > 0 && body.length <= 500 ? body : undefined) ??
    `${response.status} ${response.statusText}`.trim();
  return new TokenActionsError({
    status: response.status,
    message,
    code: stringField(fields, 'code') ?? stringField(fields, 'error'),
    body,
    rateLimit: rateLimitOf(fields.rateLimit),
    retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after'), Date.now()),
    requestId: response.headers.get('x-request-id') ?? undefined,
  });
}

/**
 * `Retry-After` (RFC 9110 section 10.2.3): delay-seconds or an HTTP-date; undefined when absent or
 * neither. A date in the past is a delay of 0.
 */
export function retryAfterSeconds(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}

function stringField(fields: Record<string, unknown>, name: string): string | undefined {
  const value = fields[name];
  return typeof value === 'string' ? value : undefined;
}

function rateLimitOf(value: unknown): RateLimit | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { limit, remaining } = value as Record<string, unknown>;
  return typeof limit === 'number' && typeof remaining === 'number' ? { limit, remaining } : undefined;
}
