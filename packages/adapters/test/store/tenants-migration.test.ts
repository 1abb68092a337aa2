import { DEFAULT_TENANT, type PublicKey, type Signature } from '@token-actions/core';
import { describe, expect, it } from 'vitest';
import { createEncryptedKeystore } from '../../src/keystore/index.js';
import { createPgliteClient, createPgStore, migrate, migrations } from '../../src/store/index.js';
import { randomPublicKey, randomSignature } from './harness.js';

/** Rows written before tenants existed belong to the default tenant, and keep working. */
describe('migration 0005_tenants on a database with data', () => {
  it('gives existing rows the default tenant and moves idempotency scopes to it', async () => {
    const sql = await createPgliteClient();
    try {
      await migrate(
        sql,
        // 0006 (webhook endpoints) references the tenants table 0005 creates.
        migrations.filter((m) => m.id !== '0005_tenants' && m.id !== '0006_webhook_endpoints'),
      );
      const at = new Date('2025-01-01T00:00:00Z');
      const tx = randomSignature();
      const other = randomSignature();
      await sql.query(
        `INSERT INTO api_keys (id, label, hash, created_at) VALUES ('key_old', 'development', $1, $2)`,
        ['a'.repeat(64), at],
      );
      await sql.query(
        `INSERT INTO idempotency_keys (scope, key, request_hash, status, response_status, response_body, created_at)
         VALUES ('key_old', 'k1', 'h1', 'completed', 200, '{"ok":true}', $1)`,
        [at],
      );
      for (const [id, requestKey] of [
        [tx, 'key_old:k1'],
        [other, null],
      ] as const) {
        await sql.query(
          `INSERT INTO transactions (id, kind, status, compute_unit_price, compute_unit_limit, fee_lamports, wire,
             blockhash, last_valid_block_height, created_at, updated_at, request_key, mint)
           VALUES ($1, 'mint', 'pending', 0, 0, 0, '\\x00', 'h', 1, $2, $2, $3, $4)`,
          [id, at, requestKey, randomPublicKey()],
        );
      }
      await sql.query(
        `INSERT INTO escrows (id, purpose, payer, beneficiary, currency, amount, status, funding_transaction_id,
           expires_at, expiry_action, created_at, updated_at)
         VALUES ('esc_old', 'merchant_payment', $1, $1, 'USDC', 1, 'held', $2, $3, 'refund', $3, $3)`,
        [randomPublicKey(), tx, at],
      );
      const keystore = createEncryptedKeystore({
        sql,
        masterKey: crypto.getRandomValues(new Uint8Array(32)),
      });
      await sql.query(
        `INSERT INTO managed_keys (public_key, name, label, ciphertext, iv, created_at)
         VALUES ('acct', NULL, NULL, '\\x00', '\\x00', $1), ('treasury-key', 'treasury', 'treasury', '\\x00', '\\x00', $1)`,
        [at],
      );

      expect((await migrate(sql)).applied).toEqual(['0005_tenants', '0006_webhook_endpoints']);
      const store = createPgStore(sql);
      expect((await store.apiKeys.findByHash('a'.repeat(64)))._unsafeUnwrap()).toMatchObject({
        id: 'key_old',
        tenant: DEFAULT_TENANT,
      });
      expect((await store.tenants.get(DEFAULT_TENANT))._unsafeUnwrap()?.treasuryPayments).toBe(true);
      expect(
        (await store.transactions.get(tx as Signature, DEFAULT_TENANT))._unsafeUnwrap()?.requestKey,
      ).toBe('default:k1');
      expect((await store.escrows.get('esc_old', DEFAULT_TENANT))._unsafeUnwrap()?.tenant).toBe(
        DEFAULT_TENANT,
      );
      // The completed answer replays under the tenant's scope.
      expect((await store.idempotency.begin(DEFAULT_TENANT, 'k1', 'h1', at))._unsafeUnwrap()).toEqual({
        state: 'completed',
        status: 200,
        body: '{"ok":true}',
      });
      const scopes = await sql.query<{ scope: string }>('SELECT scope FROM idempotency_keys');
      expect(scopes.rows.map((r) => r.scope)).toEqual(['default']);
      expect((await keystore.lookup('acct' as PublicKey))._unsafeUnwrap()).toEqual({
        tenant: DEFAULT_TENANT,
      });
      expect((await keystore.lookup('treasury-key' as PublicKey))._unsafeUnwrap()).toEqual({});
    } finally {
      await sql.close();
    }
  }, 60_000);
});
