import { createOutboundGuard } from '@token-actions/adapters';
import type { ClockPort, OAuthStore, OutboundUrlPolicy } from '@token-actions/core';
import type { StateConfig, SwapConfig } from '../config/fragments.js';
import { systemClock } from '../core-deps.js';
import { openDatabase } from '../database.js';
import { composeStores } from '../stores.js';

export type ClientRegistryConfig = Pick<StateConfig, 'DATA_DIR' | 'DATABASE_URL' | 'EMBEDDED_DATABASE'> &
  Pick<SwapConfig, 'WEBHOOK_ALLOW_PRIVATE'>;

/** What registering an OAuth client needs, and nothing more: no chain, keys or HTTP. */
export interface ClientRegistry {
  readonly store: OAuthStore;
  readonly clock: ClockPort;
  /** The rule a client's webhook URL must pass, as on the server. */
  readonly webhookUrls: OutboundUrlPolicy;
  close(): Promise<void>;
}

/**
 * The register-client command's composition, used by its entry (the server's CLI): the migrated
 * database on one connection (the embedded one belongs to one process at a time, so the server
 * must be stopped) and its OAuth store.
 */
export async function composeClientRegistry(config: ClientRegistryConfig): Promise<ClientRegistry> {
  const sql = await openDatabase(config, { maxConnections: 1 });
  return {
    store: composeStores(sql, { clock: systemClock, coalesceWrites: false }).oauth,
    clock: systemClock,
    webhookUrls: createOutboundGuard({ allowPrivate: config.WEBHOOK_ALLOW_PRIVATE }),
    close: () => sql.close(),
  };
}
