import type { ResultAsync } from 'neverthrow';
import type { PublicKey, Signature } from '../domain/public-key.js';
import type { TenantId, TenantRecord } from '../domain/tenant.js';
import type {
  TransactionKind,
  TransactionRecord,
  TransactionStatusPatch,
  TxStatus,
} from '../domain/transaction.js';
import type { DomainError } from '../errors.js';

export const ESCROW_STATUSES = ['held', 'released', 'refunded'] as const;
export type EscrowStatus = (typeof ESCROW_STATUSES)[number];
export const ESCROW_PURPOSES = ['charity_donation', 'merchant_payment'] as const;
export type EscrowPurpose = (typeof ESCROW_PURPOSES)[number];
export const ESCROW_EXPIRY_ACTIONS = ['refund', 'release'] as const;
export type EscrowExpiryAction = (typeof ESCROW_EXPIRY_ACTIONS)[number];

export interface EscrowRecord {
  readonly id: string;
  /** The tenant whose payment funded it: only that tenant reads, releases or refunds it. */
  readonly tenant: TenantId;
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
  readonly tenant: TenantId;
  /** The first characters of the secret, enough to recognise a key in a list; absent for keys made before prefixes were kept. */
  readonly prefix?: string;
  readonly createdAt: Date;
  /** Last successful authentication, kept to the minute. */
  readonly lastUsedAt?: Date;
  readonly revokedAt?: Date;
  /** A rotated key keeps working until then. */
  readonly expiresAt?: Date;
}

export type NewApiKey = Pick<ApiKeyRecord, 'id' | 'label' | 'tenant' | 'createdAt'> & {
  readonly prefix?: string;
  /** SHA-256 (hex) of the secret: the secret itself is never stored. */
  readonly hash: string;
};

/** Whether a key authenticates at `now`: neither revoked nor past its expiry. */
export function isApiKeyActive(key: ApiKeyRecord, now: Date): boolean {
  return (
    key.revokedAt === undefined && (key.expiresAt === undefined || key.expiresAt.getTime() > now.getTime())
  );
}

/** One compare-and-set move of `transitionMany`. */
export interface StatusMove {
  readonly id: Signature;
  readonly from: TxStatus;
  readonly to: TxStatus;
  readonly patch?: TransactionStatusPatch;
}

/** Where a chunked claim of unsettled transactions left off: the last transaction it claimed. */
export interface UnsettledCursor {
  readonly createdAt: Date;
  readonly id: string;
}

/**
 * What a tracking pass reads of a claimed transaction: enough to reconcile it with the chain
 * (id, status, last valid block height), re-send it (its wire), reopen an escrow whose payout was
 * lost (kind, escrow id) and walk on (created at). A worker claims every unsettled transaction at
 * least twice, and the full record's other columns were most of the garbage its passes left in
 * the old generation of a busy server.
 */
export type ClaimedTransaction = Pick<
  TransactionRecord,
  'id' | 'kind' | 'status' | 'escrowId' | 'lastValidBlockHeight' | 'createdAt' | 'wire'
>;

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
  /**
   * With a tenant, a transaction of another tenant is absent (null), exactly like an unknown id.
   * Without one the read is the service's own (worker, settlement, swaps).
   */
  get(id: Signature, tenant?: TenantId): ResultAsync<TransactionRecord | null, DomainError>;
  /** The mint transaction that created the NFT `mint`, scoped like `get`. */
  findMint(mint: PublicKey, tenant?: TenantId): ResultAsync<TransactionRecord | null, DomainError>;
  /** Compare-and-set: moves the status only if it is still `from`. Returns whether it moved. */
  transition(
    id: Signature,
    from: TxStatus,
    to: TxStatus,
    patch?: TransactionStatusPatch,
  ): ResultAsync<boolean, DomainError>;
  /**
   * Many compare-and-set moves at once (the tracking sweep): each moves only if its transaction is
   * still in `from`, exactly as `transition` would, and the answer says, in order, which moved.
   * Ids must be distinct; a move `canTransition` refuses fails the whole call before anything moves.
   */
  transitionMany(moves: readonly StatusMove[]): ResultAsync<readonly boolean[], DomainError>;
  /** Non-terminal transactions, oldest first. */
  listUnsettled(limit: number): ResultAsync<readonly TransactionRecord[], DomainError>;
  /**
   * Leases up to `limit` non-terminal transactions to `owner` for `leaseMs`, oldest first, skipping
   * those another owner holds an unexpired lease on. Several workers calling at once get disjoint
   * sets, so each transaction is polled and rebroadcast by one worker at a time. The owner's own
   * leases are claimed again, and renewed only once half of `leaseMs` has run. With `after`, only
   * transactions that come after it in that order (created later, or at the same time with a greater
   * id): a pass walks the unsettled ones in chunks, each claim starting where the last one ended.
   * With `confirmedBy`, a `confirmed` transaction is claimed only if it was confirmed (last
   * updated) at or before that time: one confirmed later cannot be final yet, so polling it would
   * only read it again.
   */
  claimUnsettled(
    owner: string,
    limit: number,
    leaseMs: number,
    after?: UnsettledCursor,
    confirmedBy?: Date,
  ): ResultAsync<readonly ClaimedTransaction[], DomainError>;
  countByKind?(kind: TransactionKind): ResultAsync<number, DomainError>;
}

export interface EscrowStore {
  /** Inserts; when one exists for the same funding transaction, returns that one (inserted=false). */
  insert(record: EscrowRecord): ResultAsync<{ inserted: boolean; record: EscrowRecord }, DomainError>;
  /** Scoped like TransactionStore.get: another tenant's escrow is absent. */
  get(id: string, tenant?: TenantId): ResultAsync<EscrowRecord | null, DomainError>;
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
   * Claims `key` in `scope` (interface A uses the caller's tenant, so a key belongs to its tenant) for a request whose body hashes to `requestHash`. A claim still in
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
  /** The tenant must exist (TenantStore.ensure). */
  insert(record: NewApiKey): ResultAsync<void, DomainError>;
  /** The key with this secret hash, revoked and expired ones included (the caller decides). */
  findByHash(hash: string): ResultAsync<ApiKeyRecord | null, DomainError>;
  get(id: string): ResultAsync<ApiKeyRecord | null, DomainError>;
  /** Oldest first; only one tenant's keys when a tenant is given. */
  list(filter?: { readonly tenant?: TenantId }): ResultAsync<readonly ApiKeyRecord[], DomainError>;
  /** Revokes at `at` (an already revoked key keeps its first revocation); null for an unknown id. */
  revoke(id: string, at: Date): ResultAsync<ApiKeyRecord | null, DomainError>;
  /** Moves the expiry to `at` unless the key already expires sooner; null for an unknown id. */
  expire(id: string, at: Date): ResultAsync<ApiKeyRecord | null, DomainError>;
  /** Records a use; a store may keep only one write a minute per key. */
  touch(id: string, at: Date): ResultAsync<void, DomainError>;
}

export interface TenantStore {
  /** The tenant, created with `defaults` when it does not exist yet. */
  ensure(
    id: TenantId,
    defaults: { readonly treasuryPayments: boolean },
    at: Date,
  ): ResultAsync<{ tenant: TenantRecord; created: boolean }, DomainError>;
  get(id: TenantId): ResultAsync<TenantRecord | null, DomainError>;
  list(): ResultAsync<readonly TenantRecord[], DomainError>;
  update(
    id: TenantId,
    patch: { readonly treasuryPayments?: boolean },
  ): ResultAsync<TenantRecord | null, DomainError>;
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
  readonly tenants: TenantStore;
}
