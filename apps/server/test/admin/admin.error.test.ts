import { createInMemoryStore, createSystemClock } from '@token-actions/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminApp } from '../../src/admin/app.js';
import { parseConfig } from '../../src/config.js';
import { type Harness, startHarness } from '../support/harness.js';
import { adminOf, request } from './support.js';

describe('admin API: errors answer {code, message} with the right status', () => {
  let h: Harness;
  let admin: ReturnType<typeof adminOf>;
  beforeAll(async () => {
    h = await startHarness();
    admin = adminOf(h);
  }, 60_000);
  afterAll(async () => h?.close());

  it.each([
    [{ label: '' }, /label must be 1-64 characters/],
    [{ label: 'x'.repeat(65) }, /label must be 1-64 characters/],
    [{ label: 'tab\there' }, /label must be 1-64 characters/],
    [{ label: 'ok', tenant: 'Upper' }, /tenant must be/],
    [{ label: 'ok', tenant: 'a:b' }, /tenant must be/],
    [{ label: 'ok', extra: 1 }, /unknown field "extra"/],
    [{ label: 5 }, /label must be a string, got number/],
    [{}, /label is required/],
  ])('refuses a key request %j with 400', async (body, message) => {
    const res = await admin.call('POST', '/v1/admin/api-keys', body);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('INVALID_INPUT');
    expect(res.json.message).toMatch(message);
  });

  it('answers 404 API_KEY_NOT_FOUND for an unknown key, and 404 TENANT_NOT_FOUND for an unknown tenant', async () => {
    for (const [method, path] of [
      ['GET', '/v1/admin/api-keys/key_missing'],
      ['DELETE', '/v1/admin/api-keys/key_missing'],
      ['POST', '/v1/admin/api-keys/key_missing/rotate'],
    ] as const) {
      const res = await admin.call(method, path, method === 'POST' ? {} : undefined);
      expect(res.status, path).toBe(404);
      expect(res.json).toEqual({ code: 'API_KEY_NOT_FOUND', message: 'API key key_missing does not exist' });
    }
    expect((await admin.call('GET', '/v1/admin/tenants/nobody')).json.code).toBe('TENANT_NOT_FOUND');
    expect((await admin.call('PATCH', '/v1/admin/tenants/nobody', { treasuryPayments: true })).status).toBe(
      404,
    );
  });

  it('refuses to rotate a revoked key (409) and an overlap out of range (400)', async () => {
    const issued = await admin.createKey('e', 'errors');
    for (const overlapSeconds of [-1, 1.5, 30 * 24 * 3600 + 1]) {
      const res = await admin.call('POST', `/v1/admin/api-keys/${issued.id}/rotate`, { overlapSeconds });
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(/overlapSeconds must be a whole number/);
    }
    expect(
      (await admin.call('POST', `/v1/admin/api-keys/${issued.id}/rotate`, { overlapSeconds: '5' })).status,
    ).toBe(400);
    await admin.call('DELETE', `/v1/admin/api-keys/${issued.id}`);
    const res = await admin.call('POST', `/v1/admin/api-keys/${issued.id}/rotate`, {});
    expect(res.status).toBe(409);
    expect(res.json.message).toMatch(/revoked or expired/);
  });

  it('refuses a body that is not JSON (415), malformed JSON (400), unknown admin routes (404)', async () => {
    const notJson = await request(h.baseUrl, 'POST', '/v1/admin/api-keys', {
      token: admin.token,
      body: 'label=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(notJson.status).toBe(415);
    const malformed = await request(h.baseUrl, 'POST', '/v1/admin/api-keys', {
      token: admin.token,
      body: '{"label":',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.json.code).toBe('INVALID_INPUT');
    const unknown = await admin.call('GET', '/v1/admin/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({
      code: 'INVALID_INPUT',
      message: 'no route for GET /v1/admin/nothing-here',
    });
    expect((await admin.call('PATCH', '/v1/admin/tenants/default', { treasuryPayments: 'yes' })).status).toBe(
      400,
    );
  });

  it('is off (404) when no operator token is configured', async () => {
    const app = createAdminApp({ store: createInMemoryStore(), clock: createSystemClock(), logger: console });
    const res = await app.request('/v1/admin/api-keys', {
      headers: { authorization: 'Bearer anything-at-all' },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      code: 'NOT_SUPPORTED',
      message: 'the admin API is off: set ADMIN_TOKEN to enable it',
    });
  });

  it('takes OAUTH_ADMIN_TOKEN as the old name of ADMIN_TOKEN, and refuses the two set apart', () => {
    const token = 'x'.repeat(40);
    expect(parseConfig({ OAUTH_ADMIN_TOKEN: token }).OAUTH_ADMIN_TOKEN).toBe(token);
    expect(parseConfig({ ADMIN_TOKEN: token, OAUTH_ADMIN_TOKEN: token }).ADMIN_TOKEN).toBe(token);
    expect(() => parseConfig({ ADMIN_TOKEN: token, OAUTH_ADMIN_TOKEN: 'y'.repeat(40) })).toThrow(
      /OAUTH_ADMIN_TOKEN: is the old name of ADMIN_TOKEN/,
    );
    expect(() => parseConfig({ ADMIN_TOKEN: 'short' })).toThrow(
      /ADMIN_TOKEN: must be at least 32 characters/,
    );
  });
});
