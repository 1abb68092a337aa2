import type { SqlExecutor } from '../sql.js';

/** This process's lease: while it is current, the idempotency claims it owns are not taken over. */
export interface InstanceLease {
  readonly id: string;
  /** Extends the lease to `now + leaseMs`, creating the row on first use. */
  renew(now: Date): Promise<void>;
  /** Ends the lease at once (graceful shutdown). */
  release(): Promise<void>;
  /**
   * Ends every other process's lease: only for a database one process can hold at a time (the
   * embedded PGlite), where any other row is left by a process that is gone.
   */
  endOthers(): Promise<void>;
}

export function createPgInstanceLease(
  sql: SqlExecutor,
  options: { id: string; leaseMs: number },
): InstanceLease {
  return {
    id: options.id,
    async renew(now) {
      await sql.query(
        `INSERT INTO process_instances (id, started_at, lease_until) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET lease_until = EXCLUDED.lease_until`,
        [options.id, now, new Date(now.getTime() + options.leaseMs)],
      );
      // A lapsed lease and a missing one mean the same (the owner is gone), so rows do not pile up.
      await sql.query('DELETE FROM process_instances WHERE lease_until < $1', [now]);
    },
    async release() {
      await sql.query('DELETE FROM process_instances WHERE id = $1', [options.id]);
    },
    async endOthers() {
      await sql.query('DELETE FROM process_instances WHERE id <> $1', [options.id]);
    },
  };
}
