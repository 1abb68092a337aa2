import type { ResultAsync } from 'neverthrow';
import type { PublicKey, Signature } from '../domain/public-key.js';
import type {
  TransactionKind,
  TransactionRecord,
  TransactionStatusPatch,
  TxStatus,
} from '../domain/transaction.js';
import type { DomainError } from '../errors.js';

export type EscrowStatus = 'held' | 'released' | 'refunded';
export type EscrowPurpose = 'charity_donation' | 'merchant_payment';
export type EscrowExpiryAction = 'refund' | 'release';

export interface EscrowRecord {
  readonly id: string;
  readonly purpose: EscrowPurpose;
  readonly payer: PublicKey;
  readonly beneficiary: PublicKey;
  readonly currency: string;
  readonly amount: bigint;
  readonly status: EscrowStatus;
  readonly fundingTransactionId: Signature;
  readonly settlementTransactionId?: Signature;
  readonly expiresAt: Date;
  readonly expiryAction: EscrowExpiryAction;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export type IdempotencyBegin =
  | { readonly state: 'started' }
  | { readonly state: 'completed'; readonly status: number; readonly body: string }
  | { readonly state: 'in_progress' }
  | { readonly state: 'mismatch' };

export interface ApiKeyRecord {
  readonly id: string;
  readonly label: string;
  readonly createdAt: Date;
}

export interface TransactionStore {
  /**
   * Inserts the record, and atomically with it the escrow it funds, if any. When a record with the
   * same id or the same requestKey exists, nothing is written and that record is returned
   * (inserted=false): a request re-run after a crash finds the transaction it already recorded.
   */
  insert(
    record: TransactionRecord,
    options?: { readonly escrow?: EscrowRecord },
  ): ResultAsync<{ inserted: boolean; record: TransactionRecord }, DomainError>;
  get(id: Signature): ResultAsync<TransactionRecord | null, DomainError>;
  /** Compare-and-set: moves the status only if it is still `from`. Returns whether it moved. */
  transition(
    id: Signature,
    from: TxStatus,
    to: TxStatus,
    patch?: TransactionStatusPatch,
  ): ResultAsync<boolean, DomainError>;
  /** Non-terminal transactions, oldest first. */
  listUnsettled(limit: number): ResultAsync<readonly TransactionRecord[], DomainError>;
  /**
   * Leases up to `limit` non-terminal transactions to `owner` for `leaseMs`, oldest first, skipping
   * those another owner holds an unexpired lease on. Several workers calling at once get disjoint
   * sets, so each transaction is polled and rebroadcast by one worker at a time.
   */
  claimUnsettled(
    owner: string,
    limit: number,
    leaseMs: number,
  ): ResultAsync<readonly TransactionRecord[], DomainError>;
  countByKind?(kind: TransactionKind): ResultAsync<number, DomainError>;
}

export interface EscrowStore {
  /** Inserts; when one exists for the same funding transaction, returns that one (inserted=false). */
  insert(record: EscrowRecord): ResultAsync<{ inserted: boolean; record: EscrowRecord }, DomainError>;
  get(id: string): ResultAsync<EscrowRecord | null, DomainError>;
  /** Compare-and-set from `held` to a settled status. Returns whether it moved. */
  settle(
    id: string,
    to: Exclude<EscrowStatus, 'held'>,
    settlementTransactionId: Signature,
  ): ResultAsync<boolean, DomainError>;
  /**
   * Compare-and-set back to `held` when the payout `settlementTransactionId` failed or expired:
   * the funds never left the vault, so the escrow can be settled again. Returns whether it moved.
   */
  reopen(id: string, settlementTransactionId: Signature): ResultAsync<boolean, DomainError>;
  listExpired(now: Date, limit: number): ResultAsync<readonly EscrowRecord[], DomainError>;
}

export interface IdempotencyStore {
  /**
   * Claims `key` in `scope` for a request whose body hashes to `requestHash`. A claim still in
   * progress after the store's abandonment window (its process died) is taken over by a request
   * with the same hash: re-running is safe because transactions are recorded once per request key.
   */
  begin(
    scope: string,
    key: string,
    requestHash: string,
    now: Date,
  ): ResultAsync<IdempotencyBegin, DomainError>;
  complete(scope: string, key: string, status: number, body: string): ResultAsync<void, DomainError>;
  /** Forgets an in-progress claim (the request failed before it had any effect). */
  release(scope: string, key: string): ResultAsync<void, DomainError>;
  purgeOlderThan(cutoff: Date): ResultAsync<number, DomainError>;
}

export interface ApiKeyStore {
  insert(record: ApiKeyRecord & { hash: string }): ResultAsync<void, DomainError>;
  findByHash(hash: string): ResultAsync<ApiKeyRecord | null, DomainError>;
}

export interface ManagedAccountRecord {
  readonly publicKey: PublicKey;
  readonly label?: string;
  readonly createdAt: Date;
}

export interface StorePort {
  readonly transactions: TransactionStore;
  readonly escrows: EscrowStore;
  readonly idempotency: IdempotencyStore;
  readonly apiKeys: ApiKeyStore;
}
