import type { OAuthStore, StoredOAuthToken } from '@token-actions/core';
import { okAsync } from 'neverthrow';
import { createNoticeGate, createTtlEntries, type NoticeSubscription } from '../store/cache.js';

export interface AccessTokenCacheOptions {
  /** How long an access token's record is served from memory. Default 1 s: the bound on how
   * stale a revocation can be when no change notice arrives. */
  readonly ttlMs?: number;
  readonly maxEntries?: number;
  /** Subscribes to OAUTH_TOKEN_CHANGES_CHANNEL (PostgreSQL LISTEN); started on first use.
   * Without it the process must be the only one that revokes. */
  readonly subscribe?: NoticeSubscription;
  readonly now?: () => number;
}

/**
 * Keeps the bearer check of interface B (one `findToken` a request) off the database without
 * serving a revoked token. Only access tokens that were active when read are kept, for at most
 * `ttlMs`. The caller still checks expiry against its clock, so an expired one is refused at once.
 * Revocations through this store drop what they touch at once. Those of other processes drop it
 * when their notice arrives: the pg store notifies `grant:<id>` in the statement that revokes a
 * token or its grant. A read that a notice, a reset or this process's own revocation overtook while
 * it was in flight is not kept. Refresh tokens are never cached: rotation and reuse detection read
 * them from the database every time.
 */
export function withAccessTokenCache(
  store: OAuthStore,
  options: AccessTokenCacheOptions = {},
): { store: OAuthStore; close(): Promise<void> } {
  const ttlMs = options.ttlMs ?? 1_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const tokens = createTtlEntries<StoredOAuthToken>(ttlMs, maxEntries, now);
  const dropGrant = (grantId: string) => tokens.deleteWhere((record) => record.grantId === grantId);
  const gate = createNoticeGate(options.subscribe, {
    onNotice(payload) {
      if (payload.startsWith('grant:')) dropGrant(payload.slice(6));
      else tokens.clear();
    },
    onReset: () => tokens.clear(),
  });

  const cached: OAuthStore = {
    ...store,
    findToken(tokenHash) {
      gate.start();
      const hit = tokens.get(tokenHash);
      if (hit) return okAsync({ ...hit });
      const at = gate.begin();
      return store.findToken(tokenHash).map((record) => {
        if (record?.kind === 'access' && record.revokedAt === undefined && gate.mayKeep(at)) {
          tokens.set(tokenHash, record);
        } else tokens.delete(tokenHash);
        return record;
      });
    },
    // After the revocation committed: dropped here, and a read in flight across it is not kept
    // (the gate). Until it commits the token is still active, so a hit meanwhile is right.
    revokeToken(tokenHash, at) {
      return store.revokeToken(tokenHash, at).map((done) => {
        gate.bump();
        tokens.delete(tokenHash);
        return done;
      });
    },
    revokeGrant(grantId, at) {
      return store.revokeGrant(grantId, at).map((done) => {
        gate.bump();
        dropGrant(grantId);
        return done;
      });
    },
  };
  return { store: cached, close: () => gate.close() };
}
