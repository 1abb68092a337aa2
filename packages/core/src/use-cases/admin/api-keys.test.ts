import { describe, expect, it } from 'vitest';
import { hashSecret } from '../../oauth/secrets.js';
import { createTestDeps } from '../../testing/index.js';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from './api-keys.js';
import { getTenant } from './tenants.js';

describe('operator use-cases: API keys', () => {
  it('issues a key once, stores its hash, lists it without the secret, revokes and rotates', async () => {
    const t = await createTestDeps();
    const issued = (await createApiKey(t.deps, { label: 'acme prod', tenant: 'acme' }))._unsafeUnwrap();
    expect(issued.apiKey).toMatch(/^ta_[A-Za-z0-9]{43}$/);
    expect(issued.record).toMatchObject({
      label: 'acme prod',
      tenant: 'acme',
      prefix: issued.apiKey.slice(0, 11),
    });
    expect((await t.store.apiKeys.findByHash(hashSecret(issued.apiKey)))._unsafeUnwrap()?.id).toBe(
      issued.record.id,
    );
    expect((await getTenant(t.deps, { id: 'acme' }))._unsafeUnwrap().treasuryPayments).toBe(false);
    expect(JSON.stringify((await listApiKeys(t.deps))._unsafeUnwrap())).not.toContain(
      issued.apiKey.slice(11),
    );

    const own = (await createApiKey(t.deps, { label: 'solo' }))._unsafeUnwrap();
    expect(own.record.tenant).toMatch(/^ten_[a-z0-9]{25}$/);
    expect((await listApiKeys(t.deps, { tenant: 'acme' }))._unsafeUnwrap().map((k) => k.id)).toEqual([
      issued.record.id,
    ]);

    t.clock.advance(1_000);
    const rotated = (
      await rotateApiKey(t.deps, { id: issued.record.id, overlapSeconds: 60 })
    )._unsafeUnwrap();
    expect(rotated.issued.record).toMatchObject({ tenant: 'acme', label: 'acme prod' });
    expect(rotated.previous.expiresAt).toEqual(new Date(t.clock.now().getTime() + 60_000));

    const revoked = (await revokeApiKey(t.deps, { id: own.record.id }))._unsafeUnwrap();
    expect(revoked.revokedAt).toEqual(t.clock.now());
    expect((await rotateApiKey(t.deps, { id: own.record.id }))._unsafeUnwrapErr().code).toBe(
      'INVALID_STATUS_TRANSITION',
    );
    expect((await revokeApiKey(t.deps, { id: 'key_missing' }))._unsafeUnwrapErr().code).toBe(
      'API_KEY_NOT_FOUND',
    );
    expect((await createApiKey(t.deps, { label: '', tenant: 'acme' }))._unsafeUnwrapErr().code).toBe(
      'INVALID_INPUT',
    );
    expect((await createApiKey(t.deps, { label: 'x', tenant: 'Not:Valid' }))._unsafeUnwrapErr().code).toBe(
      'INVALID_INPUT',
    );
    expect(
      (await rotateApiKey(t.deps, { id: rotated.issued.record.id, overlapSeconds: -1 }))._unsafeUnwrapErr()
        .code,
    ).toBe('INVALID_INPUT');
  });
});
