/**
 * Ordered schema migrations, applied once each and recorded in `schema_migrations`.
 * Each module exports `{ id, sql }`; ids sort lexically in the order they must run.
 * Range 0001-0099: transactions/escrow/idempotency/keys (core store). 0100-0199: OAuth and rate limits.
 */

import { migration0001 } from './0001_init.js';
import { migration0002 } from './0002_leases.js';
import { migration0003 } from './0003_request_keys.js';
import { migration0004 } from './0004_pools.js';
import { migration0005 } from './0005_tenants.js';
import { migration0006 } from './0006_webhook_endpoints.js';
import { migration0007 } from './0007_unsettled_order.js';
import { migration0040 } from './0040_swap_quotes.js';
import { migration0050 } from './0050_instance_leases.js';
import { migration0100 } from './0100_oauth.js';
import type { Migration } from './types.js';

export const migrations: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0040,
  migration0006,
  migration0007,
  migration0050,
  migration0100,
].sort((a, b) => a.id.localeCompare(b.id));
