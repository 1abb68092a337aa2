import { okAsync, type ResultAsync } from 'neverthrow';
import type { DomainError } from '../errors.js';
import type {
  AuthorizationCodeRecord,
  ConsumedCode,
  OAuthClientRecord,
  OAuthStore,
  OAuthTokenRecord,
  RefreshRotation,
  StoredOAuthToken,
} from '../ports/oauth.js';

/** Kept past expiry so a late replay still revokes what the code issued (mirrors the pg adapter). */
const CODE_RETENTION_MS = 24 * 60 * 60 * 1000;

interface TokenRow {
  record: OAuthTokenRecord;
  revokedAt?: Date;
  rotatedAt?: Date;
}

/** In-memory OAuthStore with the same atomicity as the pg adapter: every method runs to completion
 * before another starts, which a single JS thread gives for free. */
export function createMemoryOAuthStore(): OAuthStore {
  const clients = new Map<string, OAuthClientRecord>();
  const codes = new Map<string, { record: AuthorizationCodeRecord; consumedAt?: Date }>();
  const tokens = new Map<string, TokenRow>();
  const revokedGrants = new Map<string, Date>();
  const nonces = new Map<string, Date>();

  const done = <T>(value: T): ResultAsync<T, DomainError> => okAsync(value);

  function view(row: TokenRow): StoredOAuthToken {
    const revokedAt = row.revokedAt ?? revokedGrants.get(row.record.grantId);
    return {
      ...row.record,
      ...(revokedAt ? { revokedAt } : {}),
      ...(row.rotatedAt ? { rotatedAt: row.rotatedAt } : {}),
    };
  }

  return {
    clients: {
      upsert(client) {
        clients.set(client.id, client);
        return done(undefined);
      },
      get(id) {
        return done(clients.get(id) ?? null);
      },
      publicRedirectUris() {
        return done([...clients.values()].filter((c) => c.type === 'public').flatMap((c) => c.redirectUris));
      },
    },
    insertCode(code) {
      if (!codes.has(code.codeHash)) codes.set(code.codeHash, { record: code });
      return done(undefined);
    },
    consumeCode(codeHash, now) {
      const row = codes.get(codeHash);
      if (!row) return done(null);
      if (row.consumedAt) return done<ConsumedCode>({ state: 'replayed', code: row.record });
      row.consumedAt = now;
      return done<ConsumedCode>({ state: 'consumed', code: row.record });
    },
    issueTokens(records) {
      for (const record of records) tokens.set(record.tokenHash, { record });
      return done(undefined);
    },
    findToken(tokenHash) {
      const row = tokens.get(tokenHash);
      return done(row ? view(row) : null);
    },
    rotateRefreshToken(refreshTokenHash, next, now) {
      const row = tokens.get(refreshTokenHash);
      if (row?.record.kind !== 'refresh') return done<RefreshRotation>({ state: 'inactive' });
      if (row.revokedAt || revokedGrants.has(row.record.grantId))
        return done<RefreshRotation>({ state: 'inactive' });
      if (row.rotatedAt) return done<RefreshRotation>({ state: 'reused', grantId: row.record.grantId });
      row.rotatedAt = now;
      for (const record of next) tokens.set(record.tokenHash, { record });
      return done<RefreshRotation>({ state: 'rotated' });
    },
    revokeToken(tokenHash, now) {
      const row = tokens.get(tokenHash);
      if (row && !row.revokedAt) row.revokedAt = now;
      return done(undefined);
    },
    revokeGrant(grantId, now) {
      if (!revokedGrants.has(grantId)) revokedGrants.set(grantId, now);
      return done(undefined);
    },
    insertNonce(nonce) {
      nonces.set(nonce.nonce, nonce.expiresAt);
      return done(undefined);
    },
    consumeNonce(nonce, now) {
      const expiresAt = nonces.get(nonce);
      if (!expiresAt) return done(false);
      nonces.delete(nonce);
      return done(expiresAt.getTime() > now.getTime());
    },
    purgeExpired(now) {
      const t = now.getTime();
      const before = codes.size + nonces.size + tokens.size;
      for (const [key, row] of codes) {
        if (row.record.expiresAt.getTime() + CODE_RETENTION_MS <= t) codes.delete(key);
      }
      for (const [key, at] of nonces) if (at.getTime() <= t) nonces.delete(key);
      for (const [key, row] of tokens) if (row.record.expiresAt.getTime() <= t) tokens.delete(key);
      return done(before - (codes.size + nonces.size + tokens.size));
    },
  };
}
