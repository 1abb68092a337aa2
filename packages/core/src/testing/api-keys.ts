import { errAsync, okAsync } from 'neverthrow';
import { DEFAULT_TENANT, type TenantRecord } from '../domain/tenant.js';
import { domainError } from '../errors.js';
import type { ApiKeyRecord, ApiKeyStore, NewApiKey, TenantStore } from '../ports/store.js';

/** A use is written at most once a minute per key, as the PostgreSQL adapter does. */
export const TOUCH_INTERVAL_MS = 60_000;

/** The tenants of the in-memory store; the default tenant exists from the start, as after the migration. */
export function createInMemoryTenants(): TenantStore {
  const tenants = new Map<string, TenantRecord>([
    [DEFAULT_TENANT, { id: DEFAULT_TENANT, treasuryPayments: true, createdAt: new Date(0) }],
  ]);
  return {
    ensure(id, defaults, at) {
      const existing = tenants.get(id);
      if (existing) return okAsync({ tenant: existing, created: false });
      const tenant: TenantRecord = { id, treasuryPayments: defaults.treasuryPayments, createdAt: at };
      tenants.set(id, tenant);
      return okAsync({ tenant, created: true });
    },
    get: (id) => okAsync(tenants.get(id) ?? null),
    list: () =>
      okAsync(
        [...tenants.values()].sort(
          (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1),
        ),
      ),
    update(id, patch) {
      const existing = tenants.get(id);
      if (!existing) return okAsync(null);
      const updated: TenantRecord = {
        ...existing,
        ...(patch.treasuryPayments !== undefined ? { treasuryPayments: patch.treasuryPayments } : {}),
      };
      tenants.set(id, updated);
      return okAsync(updated);
    },
  };
}

/** API keys in memory, with the rules of the PostgreSQL adapter (unique id and hash, a known tenant). */
export function createInMemoryApiKeys(tenants: TenantStore): ApiKeyStore {
  const keys = new Map<string, { record: ApiKeyRecord; hash: string }>();
  const copy = (record: ApiKeyRecord): ApiKeyRecord => ({ ...record });
  const byHash = (hash: string) => [...keys.values()].find((k) => k.hash === hash);

  const patch = (id: string, change: (record: ApiKeyRecord) => ApiKeyRecord) => {
    const found = keys.get(id);
    if (!found) return okAsync(null);
    found.record = change(found.record);
    return okAsync(copy(found.record));
  };

  return {
    insert(record: NewApiKey) {
      if (keys.has(record.id) || byHash(record.hash)) {
        return errAsync(domainError('INTERNAL', 'an API key with this id or hash already exists'));
      }
      return tenants.get(record.tenant).andThen((tenant) => {
        if (!tenant) return errAsync(domainError('INTERNAL', `tenant ${record.tenant} does not exist`));
        const { hash, ...rest } = record;
        keys.set(record.id, { record: { ...rest }, hash });
        return okAsync(undefined);
      });
    },
    findByHash(hash) {
      const found = byHash(hash);
      return okAsync(found ? copy(found.record) : null);
    },
    get(id) {
      const found = keys.get(id);
      return okAsync(found ? copy(found.record) : null);
    },
    list(filter = {}) {
      return okAsync(
        [...keys.values()]
          .map((k) => k.record)
          .filter((r) => filter.tenant === undefined || r.tenant === filter.tenant)
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
          .map(copy),
      );
    },
    revoke: (id, at) => patch(id, (r) => (r.revokedAt ? r : { ...r, revokedAt: at })),
    expire: (id, at) =>
      patch(id, (r) => (r.expiresAt && r.expiresAt.getTime() <= at.getTime() ? r : { ...r, expiresAt: at })),
    touch(id, at) {
      const found = keys.get(id);
      const last = found?.record.lastUsedAt;
      if (found && (!last || last.getTime() <= at.getTime() - TOUCH_INTERVAL_MS)) {
        found.record = { ...found.record, lastUsedAt: at };
      }
      return okAsync(undefined);
    },
  };
}
