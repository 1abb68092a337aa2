import {
  type ApiKeyRecord,
  type ClockPort,
  canTransition,
  type DomainError,
  domainError,
  type EscrowRecord,
  type IdempotencyBegin,
  type PriorityLevel,
  type PublicKey,
  type Signature,
  type StorePort,
  type TransactionKind,
  type TransactionRecord,
  type TxStatus,
} from '@token-actions/core';
import { errAsync, ResultAsync } from 'neverthrow';
import { attempt, sqlState, storeFailure } from './failure.js';
import type { SqlExecutor } from './sql.js';

/** Idempotency keys are honoured for 24 hours; an older claim counts as absent and is replaced. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface PgStoreOptions {
  /** Source of `updated_at` for status changes and settlements; the system clock by default. */
  readonly clock?: ClockPort;
  /** An idempotency claim in progress this long belongs to a dead process and may be taken over. Default 30 s. */
  readonly idempotencyAbandonAfterMs?: number;
}

type Row = Record<string, unknown>;

const TX_COLUMNS = `id, kind, status, currency, amount, from_account, to_account, mint, escrow_id, priority,
  compute_unit_price, compute_unit_limit, fee_lamports, wire, blockhash, last_valid_block_height, slot, error,
  created_at, updated_at, request_key`;

const ESCROW_COLUMNS = `id, purpose, payer, beneficiary, currency, amount, status, funding_transaction_id,
  settlement_transaction_id, expires_at, expiry_action, created_at, updated_at`;

/**
 * The store port over the pg dialect (PGlite or PostgreSQL). Every mutation is one statement, so
 * it is atomic without an explicit transaction and safe with many processes on one database.
 */
export function createPgStore(sql: SqlExecutor, options: PgStoreOptions = {}): StorePort {
  const now = () => options.clock?.now() ?? new Date();

  const getTransaction = (db: SqlExecutor, id: string) =>
    db
      .query<Row>(`SELECT ${TX_COLUMNS} FROM transactions WHERE id = $1`, [id])
      .then((r) => (r.rows[0] ? toTransaction(r.rows[0]) : null));

  const getEscrow = (id: string) =>
    sql
      .query<Row>(`SELECT ${ESCROW_COLUMNS} FROM escrows WHERE id = $1`, [id])
      .then((r) => (r.rows[0] ? toEscrow(r.rows[0]) : null));

  return {
    transactions: {
      insert(record, options) {
        return attempt('transactions.insert', async () => {
          const txParams = [
            record.id,
            record.kind,
            record.status,
            record.currency ?? null,
            numeric(record.amount),
            record.from ?? null,
            record.to ?? null,
            record.mint ?? null,
            record.escrowId ?? null,
            record.priority ?? null,
            numeric(record.computeUnitPrice),
            record.computeUnitLimit,
            numeric(record.feeLamports),
            record.wire,
            record.blockhash,
            numeric(record.lastValidBlockHeight),
            numeric(record.slot),
            record.error ?? null,
            record.createdAt,
            record.updatedAt,
            record.requestKey ?? null,
          ];
          const insertTx = `INSERT INTO transactions (${TX_COLUMNS})
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
             ON CONFLICT DO NOTHING
             RETURNING id`;
          const escrow = options?.escrow;
          // With an escrow, both rows go in one statement: there is never a recorded funding
          // transaction without its escrow, nor an escrow whose funding was not recorded.
          const inserted = escrow
            ? await sql.query(
                `WITH tx AS (${insertTx}),
                      esc AS (INSERT INTO escrows (${ESCROW_COLUMNS})
                              SELECT $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34 FROM tx
                              ON CONFLICT DO NOTHING)
                 SELECT id FROM tx`,
                [
                  ...txParams,
                  escrow.id,
                  escrow.purpose,
                  escrow.payer,
                  escrow.beneficiary,
                  escrow.currency,
                  numeric(escrow.amount),
                  escrow.status,
                  escrow.fundingTransactionId,
                  escrow.settlementTransactionId ?? null,
                  escrow.expiresAt,
                  escrow.expiryAction,
                  escrow.createdAt,
                  escrow.updatedAt,
                ],
              )
            : await sql.query(insertTx, txParams);
          if (inserted.rows.length > 0)
            return { inserted: true, record: { ...record, wire: new Uint8Array(record.wire) } };
          const existing = await sql.query<Row>(
            `SELECT ${TX_COLUMNS} FROM transactions WHERE id = $1 OR (request_key IS NOT NULL AND request_key = $2)
              ORDER BY (request_key = $2) DESC NULLS LAST LIMIT 1`,
            [record.id, record.requestKey ?? null],
          );
          const row = existing.rows[0];
          if (!row) throw new Error('conflicting transaction row vanished');
          return { inserted: false, record: toTransaction(row) };
        });
      },

      get(id) {
        return attempt('transactions.get', () => getTransaction(sql, id));
      },

      transition(id, from, to, patch) {
        if (!canTransition(from, to)) {
          return errAsync(
            domainError('INVALID_STATUS_TRANSITION', `a transaction cannot move from ${from} to ${to}`),
          );
        }
        // The event row is written by the statement that moves the status, so a move and its
        // record cannot come apart, and a lost race writes neither.
        return attempt('transactions.transition', async () => {
          const moved = await sql.query(
            `WITH moved AS (
               UPDATE transactions
                  SET status = $3,
                      slot = COALESCE($4::numeric, slot),
                      error = COALESCE($5::text, error),
                      updated_at = $6
                WHERE id = $1 AND status = $2
               RETURNING id
             )
             INSERT INTO transaction_events (transaction_id, from_status, to_status, at)
             SELECT id, $2::text, $3::text, $6 FROM moved
             RETURNING id`,
            [id, from, to, numeric(patch?.slot), patch?.error ?? null, now()],
          );
          return moved.rows.length > 0;
        });
      },

      listUnsettled(limit) {
        return attempt('transactions.listUnsettled', async () => {
          const result = await sql.query<Row>(
            `SELECT ${TX_COLUMNS} FROM transactions
              WHERE status IN ('pending', 'processed', 'confirmed')
              ORDER BY created_at, id
              LIMIT $1`,
            [Math.max(0, Math.floor(limit))],
          );
          return result.rows.map(toTransaction);
        });
      },

      claimUnsettled(owner, limit, leaseMs) {
        return attempt('transactions.claimUnsettled', async () => {
          // SKIP LOCKED lets concurrent workers pass over rows another is claiming right now; the
          // lease then keeps them off those rows until it runs out.
          const result = await sql.query<Row>(
            `UPDATE transactions t
                SET lease_owner = $1, lease_until = $4::timestamptz + ($3::bigint * interval '1 millisecond')
               FROM (SELECT id FROM transactions
                      WHERE status IN ('pending', 'processed', 'confirmed')
                        AND (lease_until IS NULL OR lease_until <= $4::timestamptz OR lease_owner = $1)
                      ORDER BY created_at, id
                      LIMIT $2
                      FOR UPDATE SKIP LOCKED) picked
              WHERE t.id = picked.id
          RETURNING ${TX_COLUMNS.split(',')
            .map((c) => `t.${c.trim()}`)
            .join(', ')}`,
            [owner, Math.max(0, Math.floor(limit)), Math.max(0, Math.floor(leaseMs)), now()],
          );
          return result.rows
            .map(toTransaction)
            .sort(
              (a, b) =>
                a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
            );
        });
      },

      countByKind(kind) {
        return attempt('transactions.countByKind', async () => {
          const result = await sql.query<{ n: string }>(
            'SELECT count(*) AS n FROM transactions WHERE kind = $1',
            [kind],
          );
          return Number(result.rows[0]?.n ?? 0);
        });
      },
    },

    escrows: {
      insert(record) {
        return attempt('escrows.insert', async () => {
          const inserted = await sql.query(
            `INSERT INTO escrows (${ESCROW_COLUMNS})
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
             ON CONFLICT DO NOTHING
             RETURNING id`,
            [
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
            ],
          );
          if (inserted.rows.length > 0) return { inserted: true, record };
          // The funding transaction is what makes an escrow unique; an id clash is only a fallback.
          const existing = await sql.query<Row>(
            `SELECT ${ESCROW_COLUMNS} FROM escrows
              WHERE funding_transaction_id = $1 OR id = $2
              ORDER BY (funding_transaction_id = $1) DESC
              LIMIT 1`,
            [record.fundingTransactionId, record.id],
          );
          const row = existing.rows[0];
          if (!row) throw new Error('conflicting escrow row vanished');
          return { inserted: false, record: toEscrow(row) };
        });
      },

      get(id) {
        return attempt('escrows.get', () => getEscrow(id));
      },

      reopen(id, settlementTransactionId) {
        return attempt('escrows.reopen', async () => {
          const moved = await sql.query(
            `UPDATE escrows
                SET status = 'held', settlement_transaction_id = NULL, updated_at = $3
              WHERE id = $1 AND status <> 'held' AND settlement_transaction_id = $2
             RETURNING id`,
            [id, settlementTransactionId, now()],
          );
          return moved.rows.length > 0;
        });
      },

      settle(id, to, settlementTransactionId) {
        return attempt('escrows.settle', async () => {
          const moved = await sql.query(
            `UPDATE escrows
                SET status = $2, settlement_transaction_id = $3, updated_at = $4
              WHERE id = $1 AND status = 'held'
             RETURNING id`,
            [id, to, settlementTransactionId, now()],
          );
          return moved.rows.length > 0;
        });
      },

      listExpired(at, limit) {
        return attempt('escrows.listExpired', async () => {
          const result = await sql.query<Row>(
            `SELECT ${ESCROW_COLUMNS} FROM escrows
              WHERE status = 'held' AND expires_at <= $1
              ORDER BY expires_at, id
              LIMIT $2`,
            [at, Math.max(0, Math.floor(limit))],
          );
          return result.rows.map(toEscrow);
        });
      },
    },

    idempotency: {
      begin(scope, key, requestHash, at) {
        const staleBefore = new Date(at.getTime() - IDEMPOTENCY_TTL_MS);
        const abandonedBefore = new Date(at.getTime() - (options.idempotencyAbandonAfterMs ?? 30_000));
        return attempt('idempotency.begin', async (): Promise<IdempotencyBegin> => {
          // A claim released between our insert and our read leaves nothing to read; claiming
          // again settles it. Giving up after a few rounds answers "in progress", which is retryable.
          for (let round = 0; round < 3; round++) {
            const claimed = await sql.query(
              `INSERT INTO idempotency_keys AS k (scope, key, request_hash, status, created_at)
               VALUES ($1, $2, $3, 'in_progress', $4)
               ON CONFLICT (scope, key) DO UPDATE
                  SET request_hash = EXCLUDED.request_hash,
                      status = 'in_progress',
                      response_status = NULL,
                      response_body = NULL,
                      created_at = EXCLUDED.created_at
                WHERE k.created_at < $5
                   OR (k.status = 'in_progress' AND k.request_hash = EXCLUDED.request_hash AND k.created_at <= $6)
               RETURNING 1 AS claimed`,
              [scope, key, requestHash, at, staleBefore, abandonedBefore],
            );
            if (claimed.rows.length > 0) return { state: 'started' };
            const existing = await sql.query<Row>(
              `SELECT request_hash, status, response_status, response_body
                 FROM idempotency_keys WHERE scope = $1 AND key = $2`,
              [scope, key],
            );
            const row = existing.rows[0];
            if (!row) continue;
            if (row.request_hash !== requestHash) return { state: 'mismatch' };
            if (row.status !== 'completed') return { state: 'in_progress' };
            return {
              state: 'completed',
              status: Number(row.response_status),
              body: String(row.response_body ?? ''),
            };
          }
          return { state: 'in_progress' };
        });
      },

      complete(scope, key, status, body) {
        return attempt('idempotency.complete', async () => {
          await sql.query(
            `UPDATE idempotency_keys
                SET status = 'completed', response_status = $3, response_body = $4
              WHERE scope = $1 AND key = $2 AND status = 'in_progress'`,
            [scope, key, status, body],
          );
        });
      },

      release(scope, key) {
        return attempt('idempotency.release', async () => {
          await sql.query(
            `DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND status = 'in_progress'`,
            [scope, key],
          );
        });
      },

      purgeOlderThan(cutoff) {
        return attempt('idempotency.purgeOlderThan', async () => {
          const result = await sql.query<{ n: string }>(
            `WITH gone AS (DELETE FROM idempotency_keys WHERE created_at < $1 RETURNING 1)
             SELECT count(*) AS n FROM gone`,
            [cutoff],
          );
          return Number(result.rows[0]?.n ?? 0);
        });
      },
    },

    apiKeys: {
      insert(record) {
        return ResultAsync.fromPromise(
          sql.query('INSERT INTO api_keys (id, label, hash, created_at) VALUES ($1, $2, $3, $4)', [
            record.id,
            record.label,
            record.hash,
            record.createdAt,
          ]),
          (error): DomainError =>
            sqlState(error) === '23505'
              ? domainError('INTERNAL', 'an API key with this id or hash already exists')
              : storeFailure('apiKeys.insert')(error),
        ).map(() => undefined);
      },

      findByHash(hash) {
        return attempt('apiKeys.findByHash', async (): Promise<ApiKeyRecord | null> => {
          const result = await sql.query<Row>('SELECT id, label, created_at FROM api_keys WHERE hash = $1', [
            hash,
          ]);
          const row = result.rows[0];
          return row
            ? { id: String(row.id), label: String(row.label), createdAt: toDate(row.created_at) }
            : null;
        });
      },
    },
  };
}

/** One successful status change of a transaction (a row of `transaction_events`). */
export interface TransactionEvent {
  /** Ascending in the order the changes were made. */
  readonly sequence: bigint;
  readonly transactionId: Signature;
  readonly from: TxStatus;
  readonly to: TxStatus;
  readonly at: Date;
}

/**
 * The status history of one transaction, oldest first. Not part of the store port: it is for
 * audits and for tests that prove a status moved exactly once under concurrency.
 */
export function listTransactionEvents(
  sql: SqlExecutor,
  transactionId: Signature,
): ResultAsync<readonly TransactionEvent[], DomainError> {
  return attempt('transactionEvents.list', async () => {
    const result = await sql.query<Row>(
      `SELECT id, transaction_id, from_status, to_status, at
         FROM transaction_events WHERE transaction_id = $1 ORDER BY id`,
      [transactionId],
    );
    return result.rows.map((row) => ({
      sequence: BigInt(String(row.id)),
      transactionId: String(row.transaction_id) as Signature,
      from: String(row.from_status) as TxStatus,
      to: String(row.to_status) as TxStatus,
      at: toDate(row.at),
    }));
  });
}

function numeric(value: bigint | undefined): string | null {
  return value === undefined ? null : value.toString();
}

/** numeric/int8 arrive as decimal strings (see sql.ts); anything else means a misconfigured client. */
function toBigInt(value: unknown): bigint {
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'bigint') return value;
  throw new Error('expected an integer column as a decimal string');
}

function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

function toBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return new Uint8Array(value);
  throw new Error('expected a bytea column as bytes');
}

function toTransaction(row: Row): TransactionRecord {
  return {
    id: String(row.id) as Signature,
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

function toEscrow(row: Row): EscrowRecord {
  return {
    id: String(row.id),
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
