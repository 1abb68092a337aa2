import {
  KEY_CHANGES_CHANNEL,
  type KeyChangeHandlers,
  OAUTH_TOKEN_CHANGES_CHANNEL,
  POOL_CHANGES_CHANNEL,
  type SqlClient,
  withAccessTokenCache,
  withApiKeyCache,
  withPoolCache,
} from '@token-actions/adapters';
import type { StateConfig } from './config/fragments.js';
import type { ListeningCaches } from './stores.js';

/**
 * The caches a long-lived Node process keeps, each dropping what another process changed as soon
 * as that process's change notice arrives on `sql`'s listening connection (subscribed on first
 * use). API keys and access tokens are also bounded by API_KEY_CACHE_TTL_MS, the delay of a
 * revocation whose notice is lost; the pool book is cached only where notices can arrive, since
 * every other process writes it too.
 */
export function listeningCaches(
  sql: SqlClient,
  config: Pick<StateConfig, 'API_KEY_CACHE_TTL_MS'>,
  which: { readonly apiKeys: boolean; readonly accessTokens: boolean; readonly pools: boolean },
): ListeningCaches {
  const on = (channel: string) =>
    sql.listen ? { subscribe: (handlers: KeyChangeHandlers) => sql.listen!(channel, handlers) } : {};
  const ttlMs = config.API_KEY_CACHE_TTL_MS;
  return {
    ...(which.apiKeys
      ? { apiKeys: (store) => withApiKeyCache(store, { ttlMs, ...on(KEY_CHANGES_CHANNEL) }) }
      : {}),
    ...(which.accessTokens
      ? {
          accessTokens: (store) => withAccessTokenCache(store, { ttlMs, ...on(OAUTH_TOKEN_CHANGES_CHANNEL) }),
        }
      : {}),
    ...(which.pools && sql.listen
      ? {
          pools: (swaps) => {
            const cache = withPoolCache(swaps, on(POOL_CHANGES_CHANNEL));
            return { store: cache.swaps, close: cache.close };
          },
        }
      : {}),
  };
}
