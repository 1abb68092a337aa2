import {
  type Signature,
  type StorePort,
  TERMINAL_STATUSES,
  type TransactionRecord,
} from '@token-actions/core';
import { okAsync } from 'neverthrow';

/**
 * Serves reads of settled transactions from memory. A transaction in a terminal status
 * (finalized, failed, expired) never changes again, so caching it is safe across any number of
 * processes sharing the database; everything else is read through.
 */
export function withSettledTransactionCache(store: StorePort, maxEntries = 20_000): StorePort {
  const settled = new Map<string, TransactionRecord>();
  const remember = (record: TransactionRecord | null) => {
    if (record && TERMINAL_STATUSES.has(record.status)) {
      if (settled.size >= maxEntries) settled.delete(settled.keys().next().value as string);
      settled.set(record.id, record);
    }
    return record;
  };
  return {
    ...store,
    transactions: {
      ...store.transactions,
      get(id: Signature) {
        const hit = settled.get(id);
        return hit ? okAsync(hit) : store.transactions.get(id).map(remember);
      },
    },
  };
}
