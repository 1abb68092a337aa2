/**
 * The closed set of domain error codes. A code is never renamed or reused: clients and the
 * HTTP edge key on it. The edge maps codes to status codes in one place (apps/server/src/http/errors.ts).
 */
export const ERROR_CODES = [
  // Payments (requests, accounts, previews, escrow, transactions), and the failures every room
  // shares: authentication, scopes, rate limits, an unavailable chain or store.
  'INVALID_INPUT',
  'INVALID_AMOUNT',
  'INVALID_PUBLIC_KEY',
  'INVALID_TRANSACTION_ID',
  'UNKNOWN_CURRENCY',
  'UNKNOWN_PRIORITY',
  'UNKNOWN_ACCOUNT',
  'INSUFFICIENT_FUNDS',
  'SIMULATION_FAILED',
  'PREVIEW_INVALID',
  'PREVIEW_EXPIRED',
  'PREVIEW_MISMATCH',
  'TRANSACTION_NOT_FOUND',
  'ESCROW_NOT_FOUND',
  'ESCROW_NOT_HELD',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_IN_PROGRESS',
  'UNAUTHORIZED',
  'NOT_SUPPORTED',
  'INVALID_STATUS_TRANSITION',
  'CHAIN_UNAVAILABLE',
  'STORE_UNAVAILABLE',
  'INTERNAL',
  'NFT_NOT_FOUND',
  'INVALID_TOKEN',
  'INSUFFICIENT_SCOPE',
  'RATE_LIMITED',
  // Swaps: pairs, liquidity, quotes and their execution, the aggregator, completion webhooks.
  'UNKNOWN_TOKEN_PAIR',
  'INVALID_PARAMETERS',
  'INSUFFICIENT_LIQUIDITY',
  'SWAP_NOT_FOUND',
  'QUOTE_EXPIRED',
  'TRANSACTION_MISMATCH',
  'INVALID_SIGNATURE',
  'WEBHOOK_SIGNATURE_INVALID',
  'AGGREGATOR_NO_ROUTE',
  'AGGREGATOR_UNAVAILABLE',
  // The operator's room: tenants, their accounts and API keys, and what a caller may do.
  'ACCOUNT_NOT_FOUND',
  'FORBIDDEN',
  'API_KEY_NOT_FOUND',
  'TENANT_NOT_FOUND',
  // Callers reaching past what is theirs: another wallet's swap, more open quotes than allowed.
  'ACCOUNT_NOT_CALLER',
  'RESERVATION_LIMIT',
  // Webhooks: the endpoints a tenant registers.
  'WEBHOOK_ENDPOINT_NOT_FOUND',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The context of each code that a caller reads, by field: a code listed here is built with exactly
 * this context (`domainError` checks it), and `isDomainErrorOf(e, code)` hands it back typed. Other
 * codes carry free-form context for logs. Add a code here before reading a field of its context.
 */
export interface ErrorContexts {
  /** The store's own failures: the operation and the SQLSTATE, never the statement or its values. */
  readonly STORE_UNAVAILABLE: { readonly operation: string; readonly sqlState?: string };
}

/** The context an error of code `C` carries. */
export type ErrorContextOf<C extends ErrorCode> = C extends keyof ErrorContexts
  ? ErrorContexts[C]
  : Record<string, unknown>;

/** A domain error; `DomainError` alone is one of any code, `DomainError<'X'>` one of code X. */
export interface DomainError<C extends ErrorCode = ErrorCode> {
  readonly code: C;
  /** Human readable, safe to show to the caller: never holds secrets. */
  readonly message: string;
  /** Structured context for logs; never rendered to callers. */
  readonly context?: ErrorContextOf<C>;
  readonly cause?: unknown;
}

export function domainError<C extends ErrorCode>(
  code: C,
  message: string,
  extra?: { context?: ErrorContextOf<C>; cause?: unknown },
): DomainError<C> {
  return {
    code,
    message,
    ...(extra?.context ? { context: extra.context } : {}),
    ...(extra?.cause ? { cause: extra.cause } : {}),
  };
}

export function isDomainError(value: unknown): value is DomainError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as DomainError).code === 'string' &&
    (ERROR_CODES as readonly string[]).includes((value as DomainError).code) &&
    typeof (value as DomainError).message === 'string'
  );
}

/**
 * Whether `value` is a domain error of code `code`, with that code's context typed. A function of
 * its own rather than an overload of `isDomainError`, which `array.filter` would call with an index.
 */
export function isDomainErrorOf<C extends ErrorCode>(value: unknown, code: C): value is DomainError<C> {
  return isDomainError(value) && value.code === code;
}

/** Wraps an unexpected rejection from a port into a DomainError so use-cases never throw. */
export function fromPortFailure(code: 'CHAIN_UNAVAILABLE' | 'STORE_UNAVAILABLE' | 'INTERNAL', what: string) {
  return (cause: unknown): DomainError =>
    isDomainError(cause) ? cause : domainError(code, `${what} failed`, { cause });
}
