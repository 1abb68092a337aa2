import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import type { PublicKey, Signature } from '../domain/public-key.js';
import { type DomainError, domainError } from '../errors.js';

/**
 * The pool book: what each pool holds (`reserve*`) and how much of it pending firm quotes have
 * promised (`reserved*`). A quote may only promise out of `reserve - reserved`, so the pool never
 * promises more than it holds. The vaults themselves are the pool authority's SOL balance and its
 * associated token accounts on chain.
 */
export interface PoolRecord {
  /** `A-B` with the tickers in the order native, stable, project, e.g. SOL-USDC. */
  readonly id: string;
  readonly tokenA: string;
  readonly tokenB: string;
  readonly reserveA: bigint;
  readonly reserveB: bigint;
  readonly reservedA: bigint;
  readonly reservedB: bigint;
  readonly feeBps: number;
  /** Holds the vaults, signs the pool's legs and (for firm quotes) pays the fee. */
  readonly authority: PublicKey;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const SWAP_STATUSES = ['prepared', 'submitted', 'landed', 'failed', 'expired'] as const;
export type SwapStatus = (typeof SWAP_STATUSES)[number];
export const TERMINAL_SWAP_STATUSES: ReadonlySet<SwapStatus> = new Set(['landed', 'failed', 'expired']);

/** Where a swap request came from: a firm quote of the project's pool, or an aggregator route. */
export const SWAP_SOURCES = ['project', 'aggregator'] as const;
export type SwapSource = (typeof SWAP_SOURCES)[number];

/** One pool crossed by a swap. */
export interface SwapHop {
  readonly pool: string;
  readonly inputToken: string;
  readonly outputToken: string;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  readonly feeAmount: bigint;
}

/** The transaction a swap request settles in, once built. */
export interface SwapTransaction {
  /** Known at build time when the service pays the fee (firm quotes); otherwise set at execute. */
  readonly transactionId?: Signature;
  readonly message: Uint8Array;
  /** The message's signers in order; signers[0] pays the fee. */
  readonly signers: readonly PublicKey[];
  /** Signatures the service made (pool authorities), by signer. */
  readonly presigned: Readonly<Record<string, Uint8Array>>;
  readonly blockhash: string;
  readonly lastValidBlockHeight: bigint;
  readonly feeLamports: bigint;
  readonly computeUnitLimit: number;
  readonly computeUnitPrice: bigint;
}

export interface SwapRequestRecord {
  readonly requestId: string;
  readonly source: SwapSource;
  /** `pool` (firm quote), `local` or `jupiter` (aggregator adapters). */
  readonly provider: string;
  readonly clientId: string;
  readonly user: PublicKey;
  readonly inputToken: string;
  readonly outputToken: string;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  readonly minOutAmount: bigint;
  readonly feeAmount: bigint;
  readonly priceImpactPpm: bigint;
  readonly slippageBps: number;
  /** Empty for an external route the service does not settle against its own pools. */
  readonly hops: readonly SwapHop[];
  readonly status: SwapStatus;
  /** The transaction's id once known: at build time when a pool authority pays the fee, at execute
   * time when the user does (it is then the user's signature). */
  readonly transactionId?: Signature;
  readonly transaction?: SwapTransaction;
  /** The fully signed wire bytes, once executed. */
  readonly signedWire?: Uint8Array;
  /** A request whose transaction was not built in time is released after this. */
  readonly expiresAt: Date;
  readonly error?: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly notifiedAt?: Date;
}

export type NewSwapRequest = Omit<
  SwapRequestRecord,
  | 'status'
  | 'transactionId'
  | 'transaction'
  | 'signedWire'
  | 'createdAt'
  | 'updatedAt'
  | 'notifiedAt'
  | 'error'
  | 'hops'
  | 'outAmount'
  | 'minOutAmount'
  | 'feeAmount'
  | 'priceImpactPpm'
>;

/** What a reservation promises, computed on the locked pools. */
export interface ReservationPlan {
  readonly hops: readonly SwapHop[];
  readonly outAmount: bigint;
  readonly minOutAmount: bigint;
  readonly feeAmount: bigint;
  readonly priceImpactPpm: bigint;
}

export interface SwapHistoryPage {
  readonly items: readonly SwapRequestRecord[];
  readonly total: number;
  /**
   * The pool as it was when the page was read, from the same snapshot: a request shown settled
   * is already in these reserves (a separate `getPool` may read before a settlement commits and
   * the page after it). Null when the pool is not booked.
   */
  readonly pool: PoolRecord | null;
}

/** Where a page of history starts: a page number (an offset), or after a request (keyset). */
export type SwapHistoryStart =
  | { readonly page: number }
  /** The page after the one that ended with `requestId` (its position is read, not its status). */
  | { readonly after: string };

/** What the worker's settlement pass needs to look at now (see `SwapStore.listDue`). */
export interface DueQuery {
  /** The chain's current block height: a transaction valid up to a lower height can no longer land. */
  readonly blockHeight: bigint;
  readonly now: Date;
  readonly limit: number;
}

export interface SwapStore {
  /** Creates the pool unless one with its id exists; returns the stored pool either way. */
  ensurePool(
    pool: Omit<PoolRecord, 'reservedA' | 'reservedB' | 'createdAt' | 'updatedAt'>,
  ): ResultAsync<{ created: boolean; pool: PoolRecord }, DomainError>;
  getPool(id: string): ResultAsync<PoolRecord | null, DomainError>;
  /**
   * The pool's authority, or null when no pool has this id. It never changes once the pool is
   * booked (`ensurePool` keeps an existing pool, and pools are never removed), so an adapter may
   * keep it in memory for good, unlike the reserves `getPool` reads.
   */
  poolAuthority(id: string): ResultAsync<PublicKey | null, DomainError>;
  listPools(): ResultAsync<readonly PoolRecord[], DomainError>;
  /**
   * In one transaction: locks `poolIds` (in id order), runs `plan` on their current state, and if it
   * succeeds adds each hop's output to its pool's reserved side and inserts the request as
   * `prepared`. When `plan` fails nothing is written and its error is returned. Concurrent
   * reservations on one pool are serialised, so each plans against the reservations before it.
   * With `maxOpenPerClient`, the request's client may hold at most that many `prepared`, unexpired
   * requests: one more is refused with `RESERVATION_LIMIT` (reservations of one client are
   * serialised too, so concurrent quotes cannot overshoot the cap).
   *
   * With `build`, the transaction that settles the request is built from the planned record while
   * the pools are still locked, and the request is stored with it in the same commit: a firm quote
   * is never on disk without its transaction. When `build` fails nothing is written for that
   * request (its output is not reserved) and its error is returned.
   */
  reserve(input: {
    readonly request: NewSwapRequest;
    readonly poolIds: readonly string[];
    readonly plan: (pools: readonly PoolRecord[]) => Result<ReservationPlan, DomainError>;
    readonly maxOpenPerClient?: number;
    readonly build?: (planned: SwapRequestRecord) => ResultAsync<SwapTransaction, DomainError>;
  }): ResultAsync<SwapRequestRecord, DomainError>;
  /** Records a request routed outside the service's pools (nothing reserved). */
  insertExternal(request: SwapRequestRecord): ResultAsync<SwapRequestRecord, DomainError>;
  get(requestId: string): ResultAsync<SwapRequestRecord | null, DomainError>;
  findByTransaction(transactionId: Signature): ResultAsync<SwapRequestRecord | null, DomainError>;
  /** Compare-and-set `prepared -> submitted` with the signed transaction. Exactly one caller wins. */
  markSubmitted(
    requestId: string,
    transactionId: Signature,
    signedWire: Uint8Array,
  ): ResultAsync<boolean, DomainError>;
  /**
   * Compare-and-set from `prepared|submitted` to a terminal status, in one transaction with the
   * book: `landed` moves each hop's input into and output out of its pool and drops the
   * reservation; `failed`/`expired` only drop the reservation. Returns whether it moved: a second
   * observer of the same outcome changes nothing.
   */
  settle(
    requestId: string,
    outcome: 'landed' | 'failed' | 'expired',
    detail?: { readonly error?: string },
  ): ResultAsync<boolean, DomainError>;
  /** `prepared` and `submitted` requests, oldest first. */
  listOpen(limit: number): ResultAsync<readonly SwapRequestRecord[], DomainError>;
  /**
   * The open requests whose outcome can be decided now, at most `limit` of each kind: every
   * `submitted` one (sent, being tracked), and the `prepared` ones that can no longer land on
   * their own: built ones whose blockhash expired (`lastValidBlockHeight < blockHeight`) and
   * unbuilt ones past `expiresAt`. A prepared firm quote still inside its blockhash window costs
   * nothing here: it is decided once it expires (or at once when a notification names it).
   */
  listDue(query: DueQuery): ResultAsync<readonly SwapRequestRecord[], DomainError>;
  /**
   * Requests that went to the chain (submitted, landed, failed) through `poolId`, newest first,
   * `pageSize` of them from `start`, with how many there are in all and the pool itself, all
   * read in one snapshot.
   */
  history(
    poolId: string,
    start: SwapHistoryStart,
    pageSize: number,
  ): ResultAsync<SwapHistoryPage, DomainError>;
  /** Terminal requests whose client has not been notified yet, oldest first. */
  listUnnotified(limit: number): ResultAsync<readonly SwapRequestRecord[], DomainError>;
  markNotified(requestId: string, at: Date): ResultAsync<void, DomainError>;
}

/**
 * The pools a plan's hops touch, each with its hops' outputs added to the side they pay out of;
 * refused (all or nothing) when a hop names a pool not in `pools`, or when that would promise more
 * than a pool holds: the pg store's CHECK constraint, alike in every store.
 */
export function reserveHops(
  pools: ReadonlyMap<string, PoolRecord>,
  hops: readonly SwapHop[],
  notOpen: (poolId: string) => DomainError,
): Result<PoolRecord[], DomainError> {
  const changed = new Map<string, PoolRecord>();
  for (const hop of hops) {
    const pool = changed.get(hop.pool) ?? pools.get(hop.pool);
    if (!pool) return err(notOpen(hop.pool));
    const reserved = withHopOutput(pool, hop, 1n);
    if (reserved.reservedA > pool.reserveA || reserved.reservedB > pool.reserveB)
      return err(overPromisedError());
    changed.set(hop.pool, reserved);
  }
  return ok([...changed.values()]);
}

/**
 * The pools of `hops` with their outputs given back: the reverse of `reserveHops`, for a
 * reservation planned but not kept. Every hop's pool must be in `pools`.
 */
export function releaseHops(pools: ReadonlyMap<string, PoolRecord>, hops: readonly SwapHop[]): PoolRecord[] {
  const changed = new Map<string, PoolRecord>();
  for (const hop of hops) {
    const pool = changed.get(hop.pool) ?? pools.get(hop.pool)!;
    changed.set(hop.pool, withHopOutput(pool, hop, -1n));
  }
  return [...changed.values()];
}

/** `pool` with a hop's output added to (`sign` 1) or taken from (-1) the side it pays out of. */
function withHopOutput(pool: PoolRecord, hop: SwapHop, sign: 1n | -1n): PoolRecord {
  return {
    ...pool,
    reservedA: pool.reservedA + (pool.tokenA === hop.outputToken ? sign * hop.outAmount : 0n),
    reservedB: pool.reservedB + (pool.tokenB === hop.outputToken ? sign * hop.outAmount : 0n),
  };
}

/** A planned request with the transaction `reserve`'s `build` made for it, alike in every store. */
export function withTransaction(record: SwapRequestRecord, transaction: SwapTransaction): SwapRequestRecord {
  return {
    ...record,
    transaction,
    ...(transaction.transactionId ? { transactionId: transaction.transactionId } : {}),
  };
}

/** The refusal of a reservation beyond what a pool holds, alike in every store. */
export function overPromisedError(): DomainError {
  return domainError('INSUFFICIENT_LIQUIDITY', 'the pool cannot promise that much; retry with less');
}

/** The refusal of one firm quote too many (`reserve` with `maxOpenPerClient`), alike in every store. */
export function reservationLimitError(max: number): DomainError {
  return domainError(
    'RESERVATION_LIMIT',
    `this client already holds ${max} unexecuted firm quotes; execute them or let them expire first`,
  );
}
