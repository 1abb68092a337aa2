import { ERROR_CODES } from '@token-actions/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked as plain JSON.
type Json = any;

/**
 * Interface A's error bodies carry the stable `code` of interface B next to the spec's `message`
 * (and nothing else), on every kind of refusal: validation, the API key, unknown ids and routes,
 * idempotency, body size and type. The OpenAPI document lists each status's codes.
 */
describe('interface A errors: {message, code}', () => {
  let h: Harness;
  let account: string;

  beforeAll(async () => {
    h = await startHarness({ MAX_BODY_BYTES: '2048' });
    account = (await h.call('POST', '/v1/api/accounts', {})).json.publicKey;
  }, 60_000);
  afterAll(async () => h?.close());

  const raw = (path: string, init: RequestInit = {}) =>
    fetch(`${h.baseUrl}${path}`, init).then(async (res) => ({
      status: res.status,
      json: (await res.json()) as Record<string, unknown>,
    }));

  function expectError(res: { status: number; json: unknown }, status: number, code: string) {
    expect(res.status, JSON.stringify(res.json)).toBe(status);
    expect(Object.keys(res.json as object).sort()).toEqual(['code', 'message']);
    expect((res.json as { code: string }).code).toBe(code);
    expect(ERROR_CODES).toContain(code);
  }

  it('400: a validation failure, a bad amount and an unknown currency each name their code', async () => {
    expectError(
      await h.call('POST', '/v1/api/donate/sol', { account, priority: 'Low' }),
      400,
      'INVALID_INPUT',
    );
    expectError(
      await h.call('POST', '/v1/api/donate/sol', { account, amount: 'abc', priority: 'Low' }),
      400,
      'INVALID_AMOUNT',
    );
    expectError(
      await h.call('POST', '/v1/api/donate/btc', { account, amount: '1', priority: 'Low' }),
      400,
      'UNKNOWN_CURRENCY',
    );
    expectError(
      await h.call('GET', '/v1/api/transaction/track/not-a-signature'),
      400,
      'INVALID_TRANSACTION_ID',
    );
  });

  it('401: UNAUTHORIZED, with a message that says what is wrong with the header', async () => {
    const key = h.apiKey;
    const cases: [Record<string, string>, RegExp][] = [
      [{}, /^missing API key: send Authorization: Bearer <api key>$/],
      [{ 'x-api-key': key }, /sent in X-API-Key, which is not read: send Authorization: Bearer <api key>/],
      [{ authorization: key }, /the Bearer scheme is missing before the API key/],
      [{ authorization: `Basic ${key}` }, /uses the Basic scheme, not Bearer/],
      [{ authorization: 'Bearer' }, /Authorization: Bearer carries no API key/],
      [{ authorization: 'Bearer ' }, /Authorization: Bearer carries no API key/],
      [{ authorization: `Bearer ${key} ${key}` }, /more than one value after Bearer/],
      [{ authorization: `Bearer  ${key}` }, /exactly one space between Bearer and the API key/],
      [{ authorization: `Bearer\t${key}` }, /exactly one space between Bearer and the API key/],
      [{ authorization: `Bearer ${'k'.repeat(300)}` }, /the API key in Authorization is malformed/],
      [{ authorization: 'Bearer ta_not-a-real-key' }, /^invalid API key$/],
    ];
    for (const [headers, message] of cases) {
      const res = await raw('/v1/api/accounts', { method: 'POST', headers });
      expectError(res, 401, 'UNAUTHORIZED');
      expect(res.json.message, JSON.stringify(headers)).toMatch(message);
      // Whatever was sent, the key is never repeated back.
      expect(String(res.json.message)).not.toContain(key);
    }
  });

  it('401 is not answered to a well-formed key, whatever the case of Bearer', async () => {
    for (const authorization of [`bearer ${h.apiKey}`, `BEARER ${h.apiKey}`]) {
      const res = await raw(`/v1/api/accounts/${account}`, { headers: { authorization } });
      expect(res.status, authorization.slice(0, 8)).toBe(200);
    }
  });

  it('404: an unknown id names its kind; a path no route serves is INVALID_INPUT', async () => {
    expectError(await h.call('GET', '/v1/api/escrows/esc_missing'), 404, 'ESCROW_NOT_FOUND');
    expectError(await h.call('GET', '/v1/api/no-such-route'), 404, 'INVALID_INPUT');
  });

  it('409: an Idempotency-Key reused with another body', async () => {
    const headers = { 'idempotency-key': `codes-${Date.now()}` };
    const first = await h.call(
      'POST',
      `/v1/api/accounts/${account}/airdrop`,
      { currency: 'SOL', amount: '1' },
      headers,
    );
    expect(first.status).toBe(200);
    expectError(
      await h.call('POST', `/v1/api/accounts/${account}/airdrop`, { currency: 'SOL', amount: '2' }, headers),
      409,
      'IDEMPOTENCY_KEY_REUSED',
    );
  });

  it('413 and 415: the body is too large, or not JSON', async () => {
    expectError(
      await h.call('POST', '/v1/api/donate/sol', { account, amount: '1', memo: 'x'.repeat(4096) }),
      413,
      'INVALID_INPUT',
    );
    expectError(
      await h.call('POST', '/v1/api/donate/sol', 'amount=1', { 'content-type': 'text/plain' }),
      415,
      'INVALID_INPUT',
    );
  });

  it('accepts currency tickers in bodies in any case', async () => {
    for (const currency of ['usdc', 'Usdc', 'sol']) {
      const res = await h.call('POST', `/v1/api/accounts/${account}/airdrop`, { currency, amount: '1' });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
    }
    const balances = await h.call('GET', `/v1/api/accounts/${account}`);
    expect(balances.status).toBe(200);
    expect(JSON.stringify(balances.json)).toContain('USDC');
  });

  it('the OpenAPI document lists the codes of each status on every interface A operation', async () => {
    const doc = (await (await fetch(`${h.baseUrl}/v1/openapi.json`)).json()) as Json;
    const codesOf = (ref: string) => {
      const schema = doc.components.schemas[ref.split('/').pop()!];
      const own =
        schema.allOf?.find((part: Json) => part.properties?.code)?.properties.code ?? schema.properties?.code;
      return own.enum as string[];
    };
    const ops = Object.entries(doc.paths as Record<string, Json>)
      .filter(([path]) => path.startsWith('/v1/api/'))
      .flatMap(([, item]) => Object.values(item as Record<string, Json>));
    expect(ops.length).toBeGreaterThan(15);
    for (const op of ops) {
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        if (Number(status) < 400) continue;
        const ref = response.content['application/json'].schema.$ref as string;
        expect(ref, `${op.operationId} ${status}`).toBe(`#/components/schemas/ErrorResponse${status}`);
      }
    }
    expect(codesOf('ErrorResponse401')).toEqual(['UNAUTHORIZED']);
    expect(codesOf('ErrorResponse409')).toEqual(
      expect.arrayContaining(['IDEMPOTENCY_KEY_REUSED', 'ESCROW_NOT_HELD']),
    );
    expect(codesOf('ErrorResponse404')).toEqual(
      expect.arrayContaining(['ESCROW_NOT_FOUND', 'INVALID_INPUT']),
    );
    expect(codesOf('ErrorResponse413')).toEqual(['INVALID_INPUT']);
    expect(codesOf('ErrorResponse500')).toEqual(['INTERNAL']);
    expect(doc.components.schemas.ErrorResponse.required).toEqual(
      expect.arrayContaining(['message', 'code']),
    );
  });
});
