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
import { columnList, type WrittenColumn } from '../statement.js';

/** How the store's rows map to core records: columns out, records in, bigints as decimal strings. */

export type Row = Record<string, unknown>;

/** The columns of a transaction, each with the value a record writes to it. */
export const TX_ROW: readonly WrittenColumn<TransactionRecord>[] = [
  { name: 'id', value: (r) => r.id },
  { name: 'kind', value: (r) => r.kind },
  { name: 'status', value: (r) => r.status },
  { name: 'currency', value: (r) => r.currency ?? null },
  { name: 'amount', value: (r) => numeric(r.amount) },
  { name: 'from_account', value: (r) => r.from ?? null },
  { name: 'to_account', value: (r) => r.to ?? null },
  { name: 'mint', value: (r) => r.mint ?? null },
  { name: 'escrow_id', value: (r) => r.escrowId ?? null },
  { name: 'priority', value: (r) => r.priority ?? null },
  { name: 'compute_unit_price', value: (r) => numeric(r.computeUnitPrice) },
  { name: 'compute_unit_limit', value: (r) => r.computeUnitLimit },
  { name: 'fee_lamports', value: (r) => numeric(r.feeLamports) },
  { name: 'wire', value: (r) => r.wire },
  { name: 'blockhash', value: (r) => r.blockhash },
  { name: 'last_valid_block_height', value: (r) => numeric(r.lastValidBlockHeight) },
  { name: 'slot', value: (r) => numeric(r.slot) },
  { name: 'error', value: (r) => r.error ?? null },
  { name: 'created_at', value: (r) => r.createdAt },
  { name: 'updated_at', value: (r) => r.updatedAt },
  { name: 'request_key', value: (r) => r.requestKey ?? null },
  { name: 'tenant', value: (r) => r.tenant },
];
export const TX_COLUMNS = columnList(TX_ROW);

/** The columns of a transaction a tracking pass claims (`ClaimedTransaction`). */
export const CLAIMED_COLUMNS = 'id, kind, status, escrow_id, last_valid_block_height, created_at, wire';

/** The columns of an escrow, each with the value a record writes to it. */
export const ESCROW_ROW: readonly WrittenColumn<EscrowRecord>[] = [
  { name: 'id', value: (r) => r.id },
  { name: 'purpose', value: (r) => r.purpose },
  { name: 'payer', value: (r) => r.payer },
  { name: 'beneficiary', value: (r) => r.beneficiary },
  { name: 'currency', value: (r) => r.currency },
  { name: 'amount', value: (r) => numeric(r.amount) },
  { name: 'status', value: (r) => r.status },
  { name: 'funding_transaction_id', value: (r) => r.fundingTransactionId },
  { name: 'settlement_transaction_id', value: (r) => r.settlementTransactionId ?? null },
  { name: 'expires_at', value: (r) => r.expiresAt },
  { name: 'expiry_action', value: (r) => r.expiryAction },
  { name: 'created_at', value: (r) => r.createdAt },
  { name: 'updated_at', value: (r) => r.updatedAt },
  { name: 'tenant', value: (r) => r.tenant },
];
export const ESCROW_COLUMNS = columnList(ESCROW_ROW);

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
