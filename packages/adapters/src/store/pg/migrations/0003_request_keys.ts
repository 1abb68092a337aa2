import type { Migration } from './types.js';

/** One transaction per scoped idempotency key, so a request re-run after a crash finds its transaction. */
export const migration0003: Migration = {
  id: '0003_request_keys',
  sql: `
    ALTER TABLE transactions ADD COLUMN request_key text;
    CREATE UNIQUE INDEX transactions_request_key ON transactions (request_key) WHERE request_key IS NOT NULL;
  `,
};
