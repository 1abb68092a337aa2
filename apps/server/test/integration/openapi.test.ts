import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';

describe('OpenAPI document', () => {
  let h: Harness;
  let doc: any;
  beforeAll(async () => {
    h = await startHarness();
    doc = await (await fetch(`${h.baseUrl}/v1/openapi.json`)).json();
  }, 60_000);
  afterAll(async () => h?.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every interface A and B route of the spec and the additions', () => {
    const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(ops.sort()).toEqual(
      [
        'POST /v1/api/mint',
        'POST /v1/api/donate/sol',
        'POST /v1/api/donate/usdc',
        'POST /v1/api/donate/proj',
        'POST /v1/api/charity/donate',
        'POST /v1/api/merchant/payment',
        'POST /v1/api/transaction/preview',
        'POST /v1/api/transaction/sign',
        'GET /v1/api/transaction/track/{transactionId}',
        'POST /v1/api/accounts',
        'GET /v1/api/accounts/{publicKey}',
        'POST /v1/api/accounts/{publicKey}/airdrop',
        'GET /v1/api/nfts/{mint}',
        'GET /v1/api/escrows/{id}',
        'POST /v1/api/escrows/{id}/release',
        'POST /v1/api/escrows/{id}/refund',
        'GET /v1/project/swap',
        'POST /v1/project/swap',
        'POST /v1/aggregator/swap',
        'POST /v1/swap/execute',
        'POST /v1/webhooks/transaction-complete',
        'GET /v1/webhooks/secret',
      ].sort(),
    );
    expect(doc.info.version).toBe('1.1.0');
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.oauth2).toMatchObject({ type: 'oauth2' });
  });

  it('serves a docs page that reads the document', async () => {
    const res = await fetch(`${h.baseUrl}/v1/docs`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('/v1/openapi.json');
  });
});
