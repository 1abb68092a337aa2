import type { SqlExecutor } from './sql.js';

/** What an operator watches about the outbox, read when metrics are scraped. */
export interface TransactionStats {
  /** Rows per status (pending, processed, confirmed, finalized, failed, expired). */
  countByStatus(): Promise<Readonly<Record<string, number>>>;
  /** `created_at` of the oldest transaction not yet settled (finalized, failed or expired). */
  oldestUnsettledAt(): Promise<Date | null>;
}

/**
 * Outbox statistics over the pg dialect. The oldest unsettled row is the first entry of the
 * partial index the tracker polls, so the worker-lag query stays cheap however large the table.
 */
export function createPgTransactionStats(sql: SqlExecutor): TransactionStats {
  return {
    async countByStatus() {
      const rows = await sql.query<{ status: string; n: string }>(
        'SELECT status, count(*) AS n FROM transactions GROUP BY status',
      );
      return Object.fromEntries(rows.rows.map((r) => [r.status, Number(r.n)]));
    },
    async oldestUnsettledAt() {
      const rows = await sql.query<{ created_at: Date | string }>(
        `SELECT created_at FROM transactions WHERE status IN ('pending', 'processed', 'confirmed')
          ORDER BY created_at LIMIT 1`,
      );
      const first = rows.rows[0];
      return first ? new Date(first.created_at) : null;
    },
  };
}
