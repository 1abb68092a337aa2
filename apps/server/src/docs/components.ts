import { z } from '@hono/zod-openapi';
import { ERROR_CODES, TX_STATUSES } from '@token-actions/core';

/** A transaction signature as the examples show it (base58, 64 bytes). */
export const SIGNATURE_EXAMPLE =
  '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
/** A public key as the examples show it (base58, 32 bytes). */
export const KEY_EXAMPLE = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

/**
 * A transaction's status, as payments' tracking and the swaps' execute answer it: one component
 * of the document, so both rooms declare the very same schema object.
 */
export const TransactionStatus = z.enum(TX_STATUSES).openapi('TransactionStatus', {
  description: 'Commitment reached, or why it never will',
  example: 'finalized',
});

/**
 * The closed set of stable error codes: interface A's `{message, code}`, interface B's and the
 * admin API's `{code, message}` name the same component.
 */
export const ErrorCode = z.enum(ERROR_CODES).openapi('ErrorCode', {
  description: 'Stable error code: never renamed or reused',
  example: 'INVALID_INPUT',
});
