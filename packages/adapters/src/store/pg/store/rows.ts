import type {
  ClaimedTransaction,
  EscrowRecord,
  PriorityLevel,
  PublicKey,
  Signature,
  TenantId,
  TransactionKind,
  TransactionRecord,
  TxStatus,
} from '@token-actions/core';

/** How the store's rows map to core records: columns out, records in, bigints as decimal strings. */

export type Row = Record<string, unknown>;

export const TX_COLUMNS = `id, kind, status, currency, amount, from_account, to_account, mint, escrow_id, priority,
  compute_unit_price, compute_unit_limit, fee_lamports, wire, blockhash, last_valid_block_height, slot, error,
  created_at, updated_at, request_key, tenant`;

/** The columns of a transaction a tracking pass claims (`ClaimedTransaction`). */
export const CLAIMED_COLUMNS = 'id, kind, status, escrow_id, last_valid_block_height, created_at, wire';

export const ESCROW_COLUMNS = `id, purpose, payer, beneficiary, currency, amount, status, funding_transaction_id,
  settlement_transaction_id, expires_at, expiry_action, created_at, updated_at, tenant`;

/** `$first, $first+1, ...`: the placeholders of `count` consecutive parameters. */
export function placeholders(first: number, count: number): string {
  return Array.from({ length: count }, (_, i) => `$${first + i}`).join(', ');
}

/** The statement parameters of an escrow row, in ESCROW_COLUMNS order. */
export function escrowParams(record: EscrowRecord): unknown[] {
  return [
    record.id,
    record.purpose,
    record.payer,
    record.beneficiary,
    record.currency,
    numeric(record.amount),
    record.status,
    record.fundingTransactionId,
    record.settlementTransactionId ?? null,
    record.expiresAt,
    record.expiryAction,
    record.createdAt,
    record.updatedAt,
    record.tenant,
  ];
}

export function numeric(value: bigint | undefined): string | null {
  return value === undefined ? null : value.toString();
}

/** numeric/int8 arrive as decimal strings (see sql.ts); anything else means a misconfigured client. */
export function toBigInt(value: unknown): bigint {
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'bigint') return value;
  throw new Error('expected an integer column as a decimal string');
}

export function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

export function toBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return new Uint8Array(value);
  throw new Error('expected a bytea column as bytes');
}

export function toTransaction(row: Row): TransactionRecord {
  return {
    id: String(row.id) as Signature,
    tenant: String(row.tenant) as TenantId,
    kind: String(row.kind) as TransactionKind,
    status: String(row.status) as TxStatus,
    ...(row.currency != null ? { currency: String(row.currency) } : {}),
    ...(row.amount != null ? { amount: toBigInt(row.amount) } : {}),
    ...(row.from_account != null ? { from: String(row.from_account) as PublicKey } : {}),
    ...(row.to_account != null ? { to: String(row.to_account) as PublicKey } : {}),
    ...(row.mint != null ? { mint: String(row.mint) as PublicKey } : {}),
    ...(row.escrow_id != null ? { escrowId: String(row.escrow_id) } : {}),
    ...(row.priority != null ? { priority: String(row.priority) as PriorityLevel } : {}),
    computeUnitPrice: toBigInt(row.compute_unit_price),
    computeUnitLimit: Number(row.compute_unit_limit),
    feeLamports: toBigInt(row.fee_lamports),
    wire: toBytes(row.wire),
    blockhash: String(row.blockhash),
    lastValidBlockHeight: toBigInt(row.last_valid_block_height),
    ...(row.slot != null ? { slot: toBigInt(row.slot) } : {}),
    ...(row.error != null ? { error: String(row.error) } : {}),
    ...(row.request_key != null ? { requestKey: String(row.request_key) } : {}),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

export function toClaimed(row: Row): ClaimedTransaction {
  return {
    id: String(row.id) as Signature,
    kind: String(row.kind) as TransactionKind,
    status: String(row.status) as TxStatus,
    ...(row.escrow_id != null ? { escrowId: String(row.escrow_id) } : {}),
    lastValidBlockHeight: toBigInt(row.last_valid_block_height),
    createdAt: toDate(row.created_at),
    wire: toBytes(row.wire),
  };
}

export function toEscrow(row: Row): EscrowRecord {
  return {
    id: String(row.id),
    tenant: String(row.tenant) as TenantId,
    purpose: String(row.purpose) as EscrowRecord['purpose'],
    payer: String(row.payer) as PublicKey,
    beneficiary: String(row.beneficiary) as PublicKey,
    currency: String(row.currency),
    amount: toBigInt(row.amount),
    status: String(row.status) as EscrowRecord['status'],
    fundingTransactionId: String(row.funding_transaction_id) as Signature,
    ...(row.settlement_transaction_id != null
      ? { settlementTransactionId: String(row.settlement_transaction_id) as Signature }
      : {}),
    expiresAt: toDate(row.expires_at),
    expiryAction: String(row.expiry_action) as EscrowRecord['expiryAction'],
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}
