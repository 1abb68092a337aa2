import type { Migration } from './types.js';

/** Worker leases on unsettled transactions (claimed with FOR UPDATE SKIP LOCKED). */
export const migration0002: Migration = {
  id: '0002_leases',
  sql: `
    ALTER TABLE transactions ADD COLUMN lease_owner text;
    ALTER TABLE transactions ADD COLUMN lease_until timestamptz;
  `,
};
