/**
 * The closed set of domain error codes. A code is never renamed or reused: clients and the
 * HTTP edge key on it. The edge maps codes to status codes in one place (apps/server/src/http/errors.ts).
 */
export const ERROR_CODES = [
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
  // Swaps and webhooks (issue 5).
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
  // Tenants and key management (issue 11).
  'ACCOUNT_NOT_FOUND',
  'FORBIDDEN',
  'API_KEY_NOT_FOUND',
  'TENANT_NOT_FOUND',
  // Hardening (issue 11).
  'ACCOUNT_NOT_CALLER',
  'RESERVATION_LIMIT',
  // Interface A webhooks (issue 11).
  'WEBHOOK_ENDPOINT_NOT_FOUND',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface DomainError {
  readonly code: ErrorCode;
  /** Human readable, safe to show to the caller: never holds secrets. */
  readonly message: string;
  /** Structured context for logs; never rendered to callers. */
  readonly context?: Record<string, unknown>;
  readonly cause?: unknown;
}

export function domainError(
  code: ErrorCode,
  message: string,
  extra?: { context?: Record<string, unknown>; cause?: unknown },
): DomainError {
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

/** Wraps an unexpected rejection from a port into a DomainError so use-cases never throw. */
export function fromPortFailure(code: 'CHAIN_UNAVAILABLE' | 'STORE_UNAVAILABLE' | 'INTERNAL', what: string) {
  return (cause: unknown): DomainError =>
    isDomainError(cause) ? cause : domainError(code, `${what} failed`, { cause });
}
