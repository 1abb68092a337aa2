import type { SwapStore } from '@token-actions/core';
import type { SqlClient } from '../sql.js';
import { createPgHistory } from './history.js';
import { createPgNotifications } from './notifications.js';
import { createPgPools } from './pools.js';
import { createPgRequests } from './requests.js';
import { createPgReservations } from './reserve.js';
import { createPgSettlement } from './settle.js';

/**
 * The pool book and its swap requests over the pg dialect: the pools, the firm quotes' reservations
 * against them, the requests' lifecycle up to settlement, each pool's history, and the completion
 * webhooks' marks.
 */
export function createPgSwapStore(
  sql: SqlClient,
  options: {
    clock?: { now(): Date };
    /** Concurrent reservations share one transaction; the Node service's setting. */
    coalescing?: boolean;
  } = {},
): SwapStore {
  const now = () => options.clock?.now() ?? new Date();
  return {
    ...createPgPools(sql, now),
    ...createPgReservations(sql, now, options.coalescing === true),
    ...createPgRequests(sql, now),
    ...createPgSettlement(sql, now),
    ...createPgHistory(sql),
    ...createPgNotifications(sql),
  };
}
