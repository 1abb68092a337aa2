import type { EscrowOutcome, EscrowRecord } from '@token-actions/core';
import { pathParam } from '../openapi.js';

/** The escrow a path names. */
export const escrowParam = pathParam('id', 'The escrow id, from the payment that funded it', 'esc_4f1c9a2b');

/** An escrow as every escrow route answers it. */
export function escrowJson(e: EscrowRecord) {
  return {
    id: e.id,
    purpose: e.purpose,
    payer: e.payer,
    beneficiary: e.beneficiary,
    currency: e.currency,
    amount: e.amount.toString(),
    status: e.status,
    fundingTransactionId: e.fundingTransactionId,
    ...(e.settlementTransactionId ? { settlementTransactionId: e.settlementTransactionId } : {}),
    expiresAt: e.expiresAt.toISOString(),
    expiryAction: e.expiryAction,
  };
}

/** A release or refund as it answers: the escrow, what happened, and the transaction that did it. */
export function settledJson(out: EscrowOutcome) {
  return { ...escrowJson(out.escrow), message: out.message, transactionId: out.transactionId };
}
