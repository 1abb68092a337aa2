import type { DomainError, ErrorCode } from '@token-actions/core';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The one place a domain error becomes an HTTP status. */
export function statusOf(code: ErrorCode): ContentfulStatusCode {
  switch (code) {
    case 'INVALID_INPUT':
    case 'INVALID_AMOUNT':
    case 'INVALID_PUBLIC_KEY':
    case 'INVALID_TRANSACTION_ID':
    case 'UNKNOWN_CURRENCY':
    case 'UNKNOWN_PRIORITY':
    case 'UNKNOWN_ACCOUNT':
    case 'INSUFFICIENT_FUNDS':
    case 'SIMULATION_FAILED':
    case 'PREVIEW_INVALID':
    case 'PREVIEW_EXPIRED':
    case 'PREVIEW_MISMATCH':
    case 'NOT_SUPPORTED':
      return 400;
    case 'UNAUTHORIZED':
      return 401;
    case 'TRANSACTION_NOT_FOUND':
    case 'ESCROW_NOT_FOUND':
    case 'NFT_NOT_FOUND':
      return 404;
    case 'ESCROW_NOT_HELD':
    case 'IDEMPOTENCY_KEY_REUSED':
    case 'IDEMPOTENCY_IN_PROGRESS':
    case 'INVALID_STATUS_TRANSITION':
      return 409;
    case 'UNKNOWN_TOKEN_PAIR':
    case 'TRANSACTION_MISMATCH':
    case 'INVALID_SIGNATURE':
      return 400;
    case 'WEBHOOK_SIGNATURE_INVALID':
      return 401;
    case 'SWAP_NOT_FOUND':
      return 404;
    case 'QUOTE_EXPIRED':
      return 409;
    case 'INVALID_PARAMETERS':
    case 'INSUFFICIENT_LIQUIDITY':
    case 'AGGREGATOR_NO_ROUTE':
      return 422;
    case 'AGGREGATOR_UNAVAILABLE':
      return 502;
    case 'CHAIN_UNAVAILABLE':
    case 'STORE_UNAVAILABLE':
    case 'INTERNAL':
      return 500;
    default:
      return 500;
  }
}

/** Server-side failures are reported without internals; the detail goes to the log only. */
export function publicMessage(error: DomainError): string {
  const status = statusOf(error.code);
  return status >= 500
    ? 'the service could not complete the operation; it is safe to retry with the same Idempotency-Key'
    : error.message;
}

export class DomainHttpError extends Error {
  constructor(readonly error: DomainError) {
    super(error.message);
  }
}
