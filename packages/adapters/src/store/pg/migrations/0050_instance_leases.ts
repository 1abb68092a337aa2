import type { Migration } from './types.js';

/**
 * Each running process holds a lease row, renewed on a heartbeat; an idempotency claim names the
 * process that made it. A claim whose owner's lease has lapsed belongs to a dead process and can be
 * taken over at once, instead of after the abandonment window.
 */
export const migration0050: Migration = {
  id: '0050_instance_leases',
  sql: `
    CREATE TABLE process_instances (
      id          text PRIMARY KEY,
      started_at  timestamptz NOT NULL,
      lease_until timestamptz NOT NULL
    );
    ALTER TABLE idempotency_keys ADD COLUMN owner text;
  `,
};
