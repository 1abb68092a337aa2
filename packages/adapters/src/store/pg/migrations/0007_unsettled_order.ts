import type { Migration } from './types.js';

/**
 * The tracker pages through unsettled transactions by `(created_at, id COLLATE "C")`, ids compared
 * byte-wise whatever the database's collation. The first index kept `id` in the database's
 * collation, so no index gave that order and every page sorted every unsettled row: a pass over
 * N unsettled rows cost N²/250. Both statements tolerate an operator having built the index `CONCURRENTLY` beforehand.
 */
export const migration0007: Migration = {
  id: '0007_unsettled_order',
  sql: `
CREATE INDEX IF NOT EXISTS transactions_unsettled_order_idx ON transactions (created_at, id COLLATE "C")
  WHERE status IN ('pending', 'processed', 'confirmed');
DROP INDEX IF EXISTS transactions_unsettled_idx;
`,
};
