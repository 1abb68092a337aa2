import {
  type ApiKeyRecord,
  type DomainError,
  domainError,
  type StorePort,
  type TenantId,
} from '@token-actions/core';
import { ResultAsync } from 'neverthrow';
import { attempt, sqlState, storeFailure } from '../failure.js';
import type { SqlExecutor } from '../sql.js';
import { type Row, toDate } from './rows.js';

/**
 * The channel every process's key cache listens on. A revocation, an expiry and a tenant change
 * notify it in the statement that makes them, so the notice goes out exactly when they commit.
 */
export const KEY_CHANGES_CHANNEL = 'token_actions_key_changes';

const COLUMNS = 'id, label, tenant, prefix, created_at, last_used_at, revoked_at, expires_at';

function toApiKey(row: Row): ApiKeyRecord {
  return {
    id: String(row.id),
    label: String(row.label),
    tenant: String(row.tenant) as TenantId,
    ...(row.prefix != null ? { prefix: String(row.prefix) } : {}),
    createdAt: toDate(row.created_at),
    ...(row.last_used_at != null ? { lastUsedAt: toDate(row.last_used_at) } : {}),
    ...(row.revoked_at != null ? { revokedAt: toDate(row.revoked_at) } : {}),
    ...(row.expires_at != null ? { expiresAt: toDate(row.expires_at) } : {}),
  };
}

/** Interface A API keys, stored only as their hash. */
export function createPgApiKeys(sql: SqlExecutor): StorePort['apiKeys'] {
  const one = (operation: string, text: string, params: unknown[]) =>
    attempt(operation, async () => {
      const result = await sql.query<Row>(text, params);
      return result.rows[0] ? toApiKey(result.rows[0]) : null;
    });

  return {
    insert(record) {
      return ResultAsync.fromPromise(
        sql.query(
          'INSERT INTO api_keys (id, label, tenant, prefix, hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
          [record.id, record.label, record.tenant, record.prefix ?? null, record.hash, record.createdAt],
        ),
        (error): DomainError => {
          const state = sqlState(error);
          if (state === '23505')
            return domainError('INTERNAL', 'an API key with this id or hash already exists');
          if (state === '23503') return domainError('INTERNAL', `tenant ${record.tenant} does not exist`);
          return storeFailure('apiKeys.insert')(error);
        },
      ).map(() => undefined);
    },

    findByHash(hash) {
      return one('apiKeys.findByHash', `SELECT ${COLUMNS} FROM api_keys WHERE hash = $1`, [hash]);
    },

    get(id) {
      return one('apiKeys.get', `SELECT ${COLUMNS} FROM api_keys WHERE id = $1`, [id]);
    },

    list(filter = {}) {
      return attempt('apiKeys.list', async () => {
        const result = await sql.query<Row>(
          `SELECT ${COLUMNS} FROM api_keys WHERE ($1::text IS NULL OR tenant = $1) ORDER BY created_at, id`,
          [filter.tenant ?? null],
        );
        return result.rows.map(toApiKey);
      });
    },

    revoke(id, at) {
      return one(
        'apiKeys.revoke',
        `WITH changed AS (
           UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING ${COLUMNS}
         )
         SELECT changed.*, pg_notify('${KEY_CHANGES_CHANNEL}', 'key:' || changed.id) FROM changed`,
        [id, at],
      );
    },

    expire(id, at) {
      return one(
        'apiKeys.expire',
        `WITH changed AS (
           UPDATE api_keys SET expires_at = LEAST(COALESCE(expires_at, $2), $2) WHERE id = $1 RETURNING ${COLUMNS}
         )
         SELECT changed.*, pg_notify('${KEY_CHANGES_CHANNEL}', 'key:' || changed.id) FROM changed`,
        [id, at],
      );
    },

    touch(id, at) {
      // At most one write a minute per key: authentication must not turn every read into a write.
      return attempt('apiKeys.touch', async () => {
        await sql.query(
          `UPDATE api_keys SET last_used_at = $2
            WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $2::timestamptz - interval '1 minute')`,
          [id, at],
        );
      });
    },
  };
}

/** Tenants and the operator's switches on them. */
export function createPgTenants(sql: SqlExecutor): StorePort['tenants'] {
  const toTenant = (row: Row) => ({
    id: String(row.id) as TenantId,
    treasuryPayments: row.treasury_payments === true,
    createdAt: toDate(row.created_at),
  });
  return {
    ensure(id, defaults, at) {
      return attempt('tenants.ensure', async () => {
        const inserted = await sql.query<Row>(
          `INSERT INTO tenants (id, treasury_payments, created_at) VALUES ($1, $2, $3)
           ON CONFLICT DO NOTHING RETURNING id, treasury_payments, created_at`,
          [id, defaults.treasuryPayments, at],
        );
        if (inserted.rows[0]) return { tenant: toTenant(inserted.rows[0]), created: true };
        const existing = await sql.query<Row>(
          'SELECT id, treasury_payments, created_at FROM tenants WHERE id = $1',
          [id],
        );
        if (!existing.rows[0]) throw new Error('conflicting tenant row vanished');
        return { tenant: toTenant(existing.rows[0]), created: false };
      });
    },
    get(id) {
      return attempt('tenants.get', async () => {
        const result = await sql.query<Row>(
          'SELECT id, treasury_payments, created_at FROM tenants WHERE id = $1',
          [id],
        );
        return result.rows[0] ? toTenant(result.rows[0]) : null;
      });
    },
    list() {
      return attempt('tenants.list', async () => {
        const result = await sql.query<Row>(
          'SELECT id, treasury_payments, created_at FROM tenants ORDER BY created_at, id',
        );
        return result.rows.map(toTenant);
      });
    },
    update(id, patch) {
      return attempt('tenants.update', async () => {
        const result = await sql.query<Row>(
          `WITH changed AS (
             UPDATE tenants SET treasury_payments = COALESCE($2, treasury_payments) WHERE id = $1
             RETURNING id, treasury_payments, created_at
           )
           SELECT changed.*, pg_notify('${KEY_CHANGES_CHANNEL}', 'tenant:' || changed.id) FROM changed`,
          [id, patch.treasuryPayments ?? null],
        );
        return result.rows[0] ? toTenant(result.rows[0]) : null;
      });
    },
  };
}
