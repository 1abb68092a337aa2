import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import type { Signature } from '../domain/public-key.js';
import {
  refusedStatusMoves,
  TERMINAL_STATUSES,
  type TransactionRecord,
  type TxStatus,
} from '../domain/transaction.js';
import type { DomainError } from '../errors.js';
import type { ClockPort } from '../ports/clock.js';
import type {
  EscrowRecord,
  EscrowStore,
  IdempotencyBegin,
  IdempotencyStore,
  StatusMove,
  StorePort,
  TransactionStore,
  UnsettledCursor,
} from '../ports/store.js';
import { createInMemoryApiKeys, createInMemoryTenants } from './api-keys.js';

/** Idempotency keys are honoured for 24 hours; older claims count as absent. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** An in-progress claim this old belongs to a request whose process died. */
export const IDEMPOTENCY_ABANDON_MS = 30_000;

/** One successful status change, as the real store's `transaction_events` table records it. */
export interface TransactionEvent {
  readonly transactionId: Signature;
  readonly from: TxStatus;
  readonly to: TxStatus;
  readonly at: Date;
}

export interface InMemoryStore extends StorePort {
  /** Status changes of one transaction, in order: lets tests prove a move happened exactly once. */
  transactionEvents(id: Signature): readonly TransactionEvent[];
  /** Every status change with its position (from 1), as the outbox of interface A webhooks reads it. */
  allTransactionEvents(): readonly (TransactionEvent & { readonly sequence: string })[];
}

interface IdempotencyRow {
  requestHash: string;
  status: 'in_progress' | 'completed';
  responseStatus?: number;
  responseBody?: string;
  createdAt: Date;
}

/** The order unsettled transactions are listed and claimed in (and a claim's cursor compared by):
 * oldest first, then by id, byte-wise. */
function oldestFirst(a: UnsettledCursor, b: UnsettledCursor): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** What the store's parts share: the outbox rows, their status history and leases, the escrows. */
interface Tables {
  readonly now: () => Date;
  readonly transactions: Map<string, TransactionRecord>;
  readonly leases: Map<string, { owner: string; until: number }>;
  readonly events: TransactionEvent[];
  readonly escrows: Map<string, EscrowRecord>;
}

// Copies keep callers from mutating what the store holds (the wire bytes are a mutable array).
const copyTx = (r: TransactionRecord): TransactionRecord => ({ ...r, wire: new Uint8Array(r.wire) });

/** Compare-and-set of one checked move. */
function move(tables: Tables, { id, from, to, patch }: StatusMove): boolean {
  const current = tables.transactions.get(id);
  if (!current || current.status !== from) return false;
  const at = tables.now();
  tables.transactions.set(id, {
    ...current,
    status: to,
    ...(patch?.slot !== undefined ? { slot: patch.slot } : {}),
    ...(patch?.error !== undefined ? { error: patch.error } : {}),
    updatedAt: at,
  });
  tables.events.push({ transactionId: id, from, to, at });
  return true;
}

/** The unsettled transactions after `after`, oldest first, that no other worker holds a live lease on. */
function claimUnsettled(
  tables: Tables,
  owner: string,
  limit: number,
  leaseMs: number,
  after?: UnsettledCursor,
  confirmedBy?: Date,
): TransactionRecord[] {
  const at = tables.now().getTime();
  const rows = [...tables.transactions.values()]
    .filter((r) => !TERMINAL_STATUSES.has(r.status))
    .filter((r) => !after || oldestFirst(r, after) > 0)
    .filter((r) => !confirmedBy || r.status !== 'confirmed' || r.updatedAt.getTime() <= confirmedBy.getTime())
    .filter((r) => {
      const lease = tables.leases.get(r.id);
      return !lease || lease.owner === owner || lease.until <= at;
    })
    .sort(oldestFirst)
    .slice(0, Math.max(0, limit));
  for (const r of rows) {
    const held = tables.leases.get(r.id);
    // The owner's own lease is renewed once half of it has run (as the SQL stores do).
    if (held?.owner === owner && held.until > at + leaseMs / 2) continue;
    tables.leases.set(r.id, { owner, until: at + leaseMs });
  }
  return rows.map(copyTx);
}

/** The transaction outbox: insert-or-return-existing, compare-and-set moves, leased claims. */
function transactionTable(tables: Tables): TransactionStore {
  return {
    insert(record, options) {
      const existing =
        tables.transactions.get(record.id) ??
        (record.requestKey !== undefined
          ? [...tables.transactions.values()].find((r) => r.requestKey === record.requestKey)
          : undefined);
      if (existing) return okAsync({ inserted: false, record: copyTx(existing) });
      tables.transactions.set(record.id, copyTx(record));
      const escrow = options?.escrow;
      if (
        escrow &&
        ![...tables.escrows.values()].some((e) => e.fundingTransactionId === escrow.fundingTransactionId)
      ) {
        tables.escrows.set(escrow.id, escrow);
      }
      return okAsync({ inserted: true, record: copyTx(record) });
    },
    get(id, tenant) {
      const found = tables.transactions.get(id);
      return okAsync(found && (tenant === undefined || found.tenant === tenant) ? copyTx(found) : null);
    },
    findMint(mint, tenant) {
      const found = [...tables.transactions.values()].find(
        (r) => r.kind === 'mint' && r.mint === mint && (tenant === undefined || r.tenant === tenant),
      );
      return okAsync(found ? copyTx(found) : null);
    },
    transition(id, from, to, patch) {
      const refused = refusedStatusMoves([{ id, from, to }]);
      if (refused) return errAsync(refused);
      return okAsync(move(tables, { id, from, to, ...(patch ? { patch } : {}) }));
    },
    transitionMany(moves) {
      const refused = refusedStatusMoves(moves);
      if (refused) return errAsync(refused);
      return okAsync(moves.map((m) => move(tables, m)));
    },
    listUnsettled(limit) {
      const rows = [...tables.transactions.values()]
        .filter((r) => !TERMINAL_STATUSES.has(r.status))
        .sort(oldestFirst)
        .slice(0, Math.max(0, limit))
        .map(copyTx);
      return okAsync(rows);
    },
    claimUnsettled: (owner, limit, leaseMs, after, confirmedBy) =>
      okAsync(claimUnsettled(tables, owner, limit, leaseMs, after, confirmedBy)),
    countByKind(kind) {
      let n = 0;
      for (const r of tables.transactions.values()) if (r.kind === kind) n++;
      return okAsync(n);
    },
  };
}

function escrowTable(tables: Tables): EscrowStore {
  return {
    insert(record) {
      const existing =
        [...tables.escrows.values()].find((e) => e.fundingTransactionId === record.fundingTransactionId) ??
        tables.escrows.get(record.id);
      if (existing) return okAsync({ inserted: false, record: existing });
      tables.escrows.set(record.id, record);
      return okAsync({ inserted: true, record });
    },
    get(id, tenant) {
      const found = tables.escrows.get(id);
      return okAsync(found && (tenant === undefined || found.tenant === tenant) ? found : null);
    },
    reopen(id, settlementTransactionId) {
      const current = tables.escrows.get(id);
      if (
        !current ||
        current.status === 'held' ||
        current.settlementTransactionId !== settlementTransactionId
      ) {
        return okAsync(false);
      }
      const { settlementTransactionId: _, ...rest } = current;
      tables.escrows.set(id, { ...rest, status: 'held', updatedAt: tables.now() });
      return okAsync(true);
    },
    settle(id, to, settlementTransactionId) {
      const current = tables.escrows.get(id);
      if (current?.status !== 'held') return okAsync(false);
      tables.escrows.set(id, { ...current, status: to, settlementTransactionId, updatedAt: tables.now() });
      return okAsync(true);
    },
    listExpired(at, limit) {
      const rows = [...tables.escrows.values()]
        .filter((e) => e.status === 'held' && e.expiresAt.getTime() <= at.getTime())
        .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime() || (a.id < b.id ? -1 : 1))
        .slice(0, Math.max(0, limit));
      return okAsync(rows);
    },
  };
}

/** Idempotency keys, honoured for 24 hours; an in-progress claim older than `abandonAfterMs` is taken over. */
function idempotencyTable(abandonAfterMs: number): IdempotencyStore {
  const rows = new Map<string, IdempotencyRow>();
  const idemKey = (scope: string, key: string) => JSON.stringify([scope, key]);
  return {
    begin(scope, key, requestHash, at): ResultAsync<IdempotencyBegin, DomainError> {
      const k = idemKey(scope, key);
      const existing = rows.get(k);
      if (!existing || existing.createdAt.getTime() < at.getTime() - IDEMPOTENCY_TTL_MS) {
        rows.set(k, { requestHash, status: 'in_progress', createdAt: at });
        return okAsync({ state: 'started' });
      }
      if (existing.requestHash !== requestHash) return okAsync({ state: 'mismatch' });
      if (existing.status === 'in_progress') {
        if (existing.createdAt.getTime() <= at.getTime() - abandonAfterMs) {
          existing.createdAt = at;
          return okAsync({ state: 'started' });
        }
        return okAsync({ state: 'in_progress' });
      }
      return okAsync({
        state: 'completed',
        status: existing.responseStatus ?? 200,
        body: existing.responseBody ?? '',
      });
    },
    complete(scope, key, status, body) {
      const row = rows.get(idemKey(scope, key));
      if (row && row.status === 'in_progress') {
        row.status = 'completed';
        row.responseStatus = status;
        row.responseBody = body;
      }
      return okAsync(undefined);
    },
    release(scope, key) {
      const k = idemKey(scope, key);
      if (rows.get(k)?.status === 'in_progress') rows.delete(k);
      return okAsync(undefined);
    },
    purgeOlderThan(cutoff) {
      let n = 0;
      for (const [k, row] of rows) {
        if (row.createdAt.getTime() < cutoff.getTime()) {
          rows.delete(k);
          n++;
        }
      }
      return okAsync(n);
    },
  };
}

/**
 * The store port in memory, with the same rules as the PostgreSQL adapter (compare-and-set moves,
 * insert-or-return-existing, 24 h idempotency window). Every method finishes synchronously before
 * it returns, which is what makes each one atomic here.
 */
export function createInMemoryStore(
  options: { clock?: ClockPort; idempotencyAbandonAfterMs?: number } = {},
): InMemoryStore {
  const tables: Tables = {
    now: () => options.clock?.now() ?? new Date(),
    transactions: new Map(),
    leases: new Map(),
    events: [],
    escrows: new Map(),
  };
  const tenants = createInMemoryTenants();
  return {
    transactionEvents: (id) => tables.events.filter((e) => e.transactionId === id),
    allTransactionEvents: () => tables.events.map((e, i) => ({ ...e, sequence: String(i + 1) })),
    transactions: transactionTable(tables),
    escrows: escrowTable(tables),
    idempotency: idempotencyTable(options.idempotencyAbandonAfterMs ?? IDEMPOTENCY_ABANDON_MS),
    apiKeys: createInMemoryApiKeys(tenants),
    tenants,
  };
}
