import type { DomainError, ErrorCode } from '@token-actions/core';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * The one place a domain error becomes an HTTP status. A record rather than a switch so that a
 * code added to core fails to compile here until it has a status.
 */
const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  INVALID_INPUT: 400,
  INVALID_AMOUNT: 400,
  INVALID_PUBLIC_KEY: 400,
  INVALID_TRANSACTION_ID: 400,
  UNKNOWN_CURRENCY: 400,
  UNKNOWN_PRIORITY: 400,
  UNKNOWN_ACCOUNT: 400,
  INSUFFICIENT_FUNDS: 400,
  SIMULATION_FAILED: 400,
  PREVIEW_INVALID: 400,
  PREVIEW_EXPIRED: 400,
  PREVIEW_MISMATCH: 400,
  NOT_SUPPORTED: 400,
  UNKNOWN_TOKEN_PAIR: 400,
  TRANSACTION_MISMATCH: 400,
  INVALID_SIGNATURE: 400,
  UNAUTHORIZED: 401,
  INVALID_TOKEN: 401,
  WEBHOOK_SIGNATURE_INVALID: 401,
  INSUFFICIENT_SCOPE: 403,
  FORBIDDEN: 403,
  ACCOUNT_NOT_CALLER: 403,
  TRANSACTION_NOT_FOUND: 404,
  ESCROW_NOT_FOUND: 404,
  NFT_NOT_FOUND: 404,
  SWAP_NOT_FOUND: 404,
  ACCOUNT_NOT_FOUND: 404,
  API_KEY_NOT_FOUND: 404,
  TENANT_NOT_FOUND: 404,
  WEBHOOK_ENDPOINT_NOT_FOUND: 404,
  ESCROW_NOT_HELD: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  INVALID_STATUS_TRANSITION: 409,
  QUOTE_EXPIRED: 409,
  INVALID_PARAMETERS: 422,
  INSUFFICIENT_LIQUIDITY: 422,
  AGGREGATOR_NO_ROUTE: 422,
  RATE_LIMITED: 429,
  RESERVATION_LIMIT: 429,
  CHAIN_UNAVAILABLE: 500,
  STORE_UNAVAILABLE: 500,
  INTERNAL: 500,
  AGGREGATOR_UNAVAILABLE: 502,
};

export function statusOf(code: ErrorCode): ContentfulStatusCode {
  return STATUS[code];
}

/**
 * A failed Result on its way out of a route handler. Handlers throw it (through `unwrap`) so the
 * one error handler of their transport renders it; a handler's return type then only ever holds
 * its documented success shape.
 */
export class DomainHttpError extends Error {
  constructor(readonly error: DomainError) {
    super(error.message);
  }
}

/** The codes whose status is `status`, in the closed set's order: what an error answer of that status can carry. */
export function codesOfStatus(status: number): ErrorCode[] {
  return (Object.keys(STATUS) as ErrorCode[]).filter((code) => STATUS[code] === status);
}
