import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createStandardWebhook } from '@token-actions/adapters';
import {
  assembleTransaction,
  ERROR_CODES,
  encodeBase58,
  fromBase64,
  messageSigners,
  OAUTH_ERROR_CODES,
  PRIORITY_LEVELS,
  type PublicKey,
  splitWireTransaction,
  TERMINAL_SWAP_STATUSES,
  TX_STATUSES,
  toBase64,
} from '@token-actions/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkthrough } from '../../../../scripts/walkthrough.js';
import { basicAuth, createTestWallet, type TestWallet } from '../fixtures/oauth-harness.js';
import { type Harness, startHarness } from '../support/harness.js';
import { type ClientToken, obtainAccessToken, registerOAuthClient } from '../support/oauth-token.js';
import {
  createConformanceChecker,
  type Exchange,
  operationsOf,
  recordFetch,
} from '../support/openapi-conformance.js';

const ADMIN = 'admin-token-for-openapi-tests-0123456789';
const WEBHOOK_SECRET = `whsec_${Buffer.from('inbound notifications secret, openapi').toString('base64')}`;
const UNKNOWN_SIGNATURE = encodeBase58(new Uint8Array(64).fill(7));
const UNKNOWN_KEY = encodeBase58(new Uint8Array(32).fill(9));

const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON.
type Json = any;

describe('OpenAPI document', () => {
  let h: Harness;
  let doc: Json;
  let receiver: Server;
  const events: { headers: Record<string, string>; body: string }[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        events.push({ headers: req.headers as Record<string, string>, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    h = await startHarness({
      OAUTH_ADMIN_TOKEN: ADMIN,
      WEBHOOK_SECRET,
      RATE_LIMIT_PER_MINUTE: '100000',
      // the webhook receiver of this test listens on 127.0.0.1
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    doc = await (await fetch(`${h.baseUrl}/v1/openapi.json`)).json();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await new Promise<void>((r) => receiver?.close(() => r()));
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lints clean with redocly (recommended-strict, offline): no errors, no warnings', async () => {
    // The path the ignore file names (.redocly.lint-ignore.yaml lists its four reasoned exceptions).
    const file = join(SERVER_DIR, 'test', '.artifacts', 'openapi.json');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(doc, null, 2));
    const { stdout } = await promisify(execFile)(
      join(SERVER_DIR, 'node_modules', '.bin', 'redocly'),
      ['lint', 'test/.artifacts/openapi.json', '--format=json'],
      {
        cwd: SERVER_DIR,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(stdout);
    expect(report.problems).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 13 });
  }, 60_000);

  it('lists every interface A and B route of the spec, the additions and the OAuth endpoints', () => {
    const ops = operationsOf(doc).map((op) => `${op.method} ${op.template}`);
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
        'GET /.well-known/oauth-authorization-server',
        'GET /oauth/authorize',
        'POST /oauth/authorize',
        'POST /oauth/authorize/challenge',
        'POST /oauth/token',
        'POST /oauth/revoke',
        'POST /oauth/introspect',
        'POST /oauth/clients',
        'GET /oauth/demo/callback',
        'POST /v1/admin/api-keys',
        'GET /v1/admin/api-keys',
        'GET /v1/admin/api-keys/{id}',
        'DELETE /v1/admin/api-keys/{id}',
        'POST /v1/admin/api-keys/{id}/rotate',
        'GET /v1/admin/tenants',
        'GET /v1/admin/tenants/{id}',
        'PATCH /v1/admin/tenants/{id}',
        'GET /actions.json',
        'GET /.well-known/actions.json',
        'GET /v1/actions/icon.svg',
        ...['donate/sol', 'donate/usdc', 'donate/proj', 'charity', 'merchant', 'mint'].flatMap((action) => [
          `GET /v1/actions/${action}`,
          `POST /v1/actions/${action}`,
        ]),
        'POST /v1/api/webhooks',
        'GET /v1/api/webhooks',
        'GET /v1/api/webhooks/{id}',
        'DELETE /v1/api/webhooks/{id}',
        'POST /v1/admin/webhooks',
        'GET /v1/admin/webhooks',
        'DELETE /v1/admin/webhooks/{id}',
      ].sort(),
    );
    expect(doc.info.version).toBe('1.1.0');
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.oauth2).toMatchObject({ type: 'oauth2' });
    expect(doc.components.securitySchemes.adminToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('names every operation and event with a unique operationId', () => {
    const webhookOps = Object.values(doc.webhooks as Record<string, Json>).map((item) => item.post);
    const ids = [...operationsOf(doc).map((op) => op.id), ...webhookOps.map((op) => op.operationId)];
    expect(ids.filter((id) => typeof id !== 'string' || !/^[a-z][A-Za-z0-9]+$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares every closed set as an enum', () => {
    const schemas = doc.components.schemas;
    expect(schemas.Priority.enum).toEqual([...PRIORITY_LEVELS]);
    expect(schemas.TransactionType.enum).toEqual([
      'donation',
      'charity_donation',
      'merchant_payment',
      'mint',
    ]);
    expect(schemas.Currency.enum).toEqual(['SOL', 'USDC', 'PROJ']);
    expect(schemas.TokenPair.enum).toContain('SOL-USDC');
    expect(schemas.TokenPair.enum).toHaveLength(6);
    expect(schemas.TransactionStatus.enum).toEqual([...TX_STATUSES]);
    expect(schemas.Escrow.properties.status.enum).toEqual(['held', 'released', 'refunded']);
    expect(schemas.SwapStatus.enum).toEqual(['prepared', 'submitted', 'landed', 'failed', 'expired']);
    expect(schemas.ErrorCode.enum).toEqual([...ERROR_CODES]);
    expect(schemas.OAuthError.properties.error.enum).toEqual([...OAUTH_ERROR_CODES]);
    // The request schemas point at the same sets (what a generated client type-checks against).
    expect(schemas.DonateRequest.properties.priority.$ref).toBe('#/components/schemas/Priority');
    expect(schemas.CharityDonationRequest.properties.currency.$ref).toBe('#/components/schemas/Currency');
    expect(schemas.TransactionPreviewRequest.properties.transactionType.$ref).toBe(
      '#/components/schemas/TransactionType',
    );
    expect(doc.paths['/oauth/token'].post.requestBody.content).toHaveProperty(
      'application/x-www-form-urlencoded',
    );
  });

  it('declares 413 and 415 on interface A writes, and the B error shape on B', () => {
    for (const op of operationsOf(doc).filter((o) => o.template.startsWith('/v1/api/'))) {
      const statuses = Object.keys(op.responses);
      expect(statuses, op.id).toEqual(expect.arrayContaining(['200', '400', '401', '500']));
      if (op.method === 'POST') expect(statuses, op.id).toEqual(expect.arrayContaining(['409', '413']));
      expect(op.responses['400'].content['application/json'].schema.$ref).toBe(
        '#/components/schemas/ErrorResponse400',
      );
    }
    expect(Object.keys(doc.paths['/v1/api/mint'].post.responses)).toContain('415');
    for (const op of operationsOf(doc).filter((o) =>
      /^\/v1\/(project|aggregator|swap|webhooks)\//.test(o.template),
    )) {
      expect(op.responses['429'].content['application/json'].schema.$ref, op.id).toBe(
        '#/components/schemas/InterfaceBError',
      );
    }
  });

  it('declares the signed swap and transaction events as webhooks with the Standard Webhooks headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(
      [
        ...[...TERMINAL_SWAP_STATUSES].map((s) => `swap.${s}`),
        ...['processed', 'confirmed', 'finalized', 'failed', 'expired'].map((s) => `transaction.${s}`),
      ].sort(),
    );
    for (const item of Object.values(doc.webhooks as Record<string, Json>)) {
      const headers = item.post.parameters.filter((p: Json) => p.in === 'header').map((p: Json) => p.name);
      expect(headers.sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
    }
  });

  it('the conformance check catches an undeclared status and a body off its schema', () => {
    const checker = createConformanceChecker(doc);
    const at = { method: 'GET', path: `/v1/api/escrows/esc_1`, contentType: 'application/json' };
    expect(checker.check({ ...at, status: 418, body: '{}' })[0]).toMatch(/status not declared for getEscrow/);
    expect(checker.check({ ...at, status: 404, body: '{"message":1,"code":"ESCROW_NOT_FOUND"}' })[0]).toMatch(
      /message must be string/,
    );
    expect(checker.check({ ...at, status: 404, body: '{"message":"no"}' })[0]).toMatch(
      /must have required property 'code'/,
    );
    expect(checker.check({ ...at, status: 404, body: '{"message":"no","code":"QUOTE_EXPIRED"}' })[0]).toMatch(
      /code must be equal to one of the allowed values/,
    );
    expect(checker.check({ ...at, status: 200, body: '{"id":"esc_1"}' }).length).toBeGreaterThan(0);
    expect(checker.check({ ...at, status: 404, body: '{"message":"no","code":"ESCROW_NOT_FOUND"}' })).toEqual(
      [],
    );
  });

  it('every answer of a walkthrough of all three interfaces conforms to the document', async () => {
    const checker = createConformanceChecker(doc);
    const recorder = recordFetch(h.baseUrl);
    let exchanges: Exchange[];
    let landedEvent: { headers: Record<string, string>; body: string } | undefined;
    let endpoint: { id: string; secret: string } | undefined;
    try {
      endpoint = await driveWebhookEndpoints(h, receiver);
      await driveInterfaceA(h);
      landedEvent = await driveInterfaceBAndOAuth(h, receiver, events);
      await driveAdmin(h);
      await driveActions(h);
    } finally {
      recorder.stop();
      // The walkthrough reads the document itself, which does not describe itself.
      exchanges = recorder.exchanges.filter((e) => e.path !== '/v1/openapi.json');
    }
    const problems = exchanges.flatMap((e) => checker.check(e));
    expect(problems).toEqual([]);

    // Every operation was called, so every one of them was checked at least once.
    const called = new Set(exchanges.map((e) => checker.operationFor(e.method, e.path)?.id));
    const uncalled = operationsOf(doc)
      .map((op) => op.id)
      .filter((id) => !called.has(id));
    expect(uncalled).toEqual([]);
    const statuses = new Set(exchanges.map((e) => e.status));
    expect([...statuses].sort()).toEqual(
      expect.arrayContaining([200, 201, 303, 400, 401, 403, 404, 409, 413, 415, 422]),
    );

    // The event the service sent matches its declaration, headers included.
    expect(landedEvent).toBeDefined();
    const event = JSON.parse(landedEvent!.body);
    const declared = doc.webhooks[event.type].post;
    expect(checker.validateAgainst(declared.requestBody.content['application/json'].schema, event)).toEqual(
      [],
    );
    for (const p of declared.parameters) expect(landedEvent!.headers[p.name], p.name).toBeTruthy();

    // The tenant's endpoint received its transactions' status changes, each as declared and
    // signed with the secret its registration returned.
    const mine = events.filter((e) => e.headers['webhook-id']?.startsWith(`msg_${endpoint!.id}_`));
    expect(mine.map((e) => JSON.parse(e.body).type)).toContain('transaction.finalized');
    const verifier = createStandardWebhook(endpoint!.secret);
    for (const e of mine) {
      const body = JSON.parse(e.body);
      const schema = doc.webhooks[body.type].post.requestBody.content['application/json'].schema;
      expect(checker.validateAgainst(schema, body)).toEqual([]);
      expect(verifier.verify(e.body, e.headers)).toMatchObject({ ok: true, id: e.headers['webhook-id'] });
    }
  }, 240_000);

  it('serves the reference page with a strict CSP, and its assets with their types and caching', async () => {
    const res = await fetch(`${h.baseUrl}/v1/docs`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('/v1/openapi.json');
    expect(html).not.toMatch(/<script>(?!<\/script>)|<script(?![^>]*\bsrc=)[^>]*>/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(2);
    for (const src of scripts) {
      expect(src.startsWith('/v1/docs/assets/')).toBe(true);
      const asset = await fetch(`${h.baseUrl}${src}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(asset.headers.get('cache-control')).toContain('immutable');
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    expect((await fetch(`${h.baseUrl}/v1/docs/assets/nope.js`)).status).toBe(404);
  });
});

/** The interface A walkthrough, then the errors it can answer. */
async function driveInterfaceA(h: Harness) {
  await walkthrough({ baseUrl: h.baseUrl, apiKey: h.apiKey });
  const account = (await h.call('POST', '/v1/api/accounts', {})).json.publicKey as string;
  expect(
    (await h.call('POST', '/v1/api/donate/sol', { account, amount: '1', priority: 'Urgent' })).status,
  ).toBe(400);
  expect(
    (await h.call('GET', `/v1/api/accounts/${account}`, undefined, { authorization: 'Bearer nope' })).status,
  ).toBe(401);
  expect((await h.call('GET', `/v1/api/transaction/track/${UNKNOWN_SIGNATURE}`)).status).toBe(404);
  expect((await h.call('GET', '/v1/api/escrows/esc_unknown')).status).toBe(404);
  expect((await h.call('GET', `/v1/api/nfts/${UNKNOWN_KEY}`)).status).toBe(404);
  await h.call('POST', '/v1/api/accounts', { label: 'a' }, { 'idempotency-key': 'openapi-409' });
  expect(
    (await h.call('POST', '/v1/api/accounts', { label: 'b' }, { 'idempotency-key': 'openapi-409' })).status,
  ).toBe(409);
  expect((await h.call('POST', '/v1/api/mint', 'x'.repeat(70_000))).status).toBe(413);
  expect((await h.call('POST', '/v1/api/mint', 'name=x', { 'content-type': 'text/plain' })).status).toBe(415);
  const escrowed = await h.call('POST', '/v1/api/charity/donate', {
    charity: UNKNOWN_KEY,
    amount: '0.01',
    currency: 'SOL',
    useEscrow: true,
  });
  expect(escrowed.status).toBe(200);
  const id = escrowed.json.escrowId as string;
  // An escrow can be settled once its funding is final.
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    const tracked = await h.call('GET', `/v1/api/transaction/track/${escrowed.json.transactionId}`);
    if (tracked.json.status === 'finalized') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect((await h.call('POST', `/v1/api/escrows/${id}/refund`)).status).toBe(200);
  expect((await h.call('POST', `/v1/api/escrows/${id}/release`)).status).toBe(409);
}

/**
 * Interface A webhook endpoints: the tenant's own (kept, to receive the walkthrough's events) and
 * the operator's, with the errors each answers.
 */
async function driveWebhookEndpoints(h: Harness, receiver: Server) {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const created = await h.call('POST', '/v1/api/webhooks', { url, description: 'openapi' });
  expect(created.status).toBe(200);
  expect((await h.call('POST', '/v1/api/webhooks', { url: 'not a url' })).status).toBe(400);
  expect((await h.call('GET', '/v1/api/webhooks')).status).toBe(200);
  expect((await h.call('GET', `/v1/api/webhooks/${created.json.id}`)).status).toBe(200);
  expect((await h.call('GET', '/v1/api/webhooks/we_nope')).status).toBe(404);
  expect((await h.call('DELETE', '/v1/api/webhooks/we_nope')).status).toBe(404);
  expect((await h.call('GET', '/v1/api/webhooks', undefined, { authorization: 'Bearer nope' })).status).toBe(
    401,
  );
  const spare = await h.call('POST', '/v1/api/webhooks', { url });
  expect((await h.call('DELETE', `/v1/api/webhooks/${spare.json.id}`)).status).toBe(200);

  const admin = (method: string, path: string, body?: unknown) =>
    h.call(method, path, body, { authorization: `Bearer ${ADMIN}` });
  const operators = await admin('POST', '/v1/admin/webhooks', { tenant: 'default', url: `${url}/operator` });
  expect(operators.status).toBe(201);
  expect((await admin('POST', '/v1/admin/webhooks', { tenant: 'nobody', url })).status).toBe(404);
  expect((await admin('POST', '/v1/admin/webhooks', { tenant: 'default', url: 'ftp://x' })).status).toBe(400);
  expect((await admin('GET', '/v1/admin/webhooks?tenant=default')).status).toBe(200);
  expect((await admin('GET', '/v1/admin/webhooks')).status).toBe(400);
  expect((await admin('DELETE', `/v1/admin/webhooks/${operators.json.id}?tenant=nobody`)).status).toBe(404);
  expect((await admin('DELETE', `/v1/admin/webhooks/${operators.json.id}?tenant=default`)).status).toBe(200);
  expect((await h.call('GET', '/v1/admin/webhooks?tenant=default')).status).toBe(401);
  return { id: created.json.id as string, secret: created.json.secret as string };
}

/** An operator's day: issue, read, rotate and revoke a key; read and set a tenant. */
async function driveAdmin(h: Harness) {
  const admin = (method: string, path: string, body?: unknown) =>
    h.call(method, path, body, { authorization: `Bearer ${ADMIN}` });
  expect((await admin('GET', '/v1/admin/api-keys', undefined)).status).toBe(200);
  expect((await h.call('GET', '/v1/admin/api-keys')).status).toBe(401);
  const issued = await admin('POST', '/v1/admin/api-keys', { label: 'openapi', tenant: 'openapi-co' });
  expect(issued.status).toBe(201);
  expect((await admin('POST', '/v1/admin/api-keys', { label: '' })).status).toBe(400);
  expect((await admin('GET', `/v1/admin/api-keys/${issued.json.id}`)).status).toBe(200);
  expect((await admin('GET', '/v1/admin/api-keys/key_nope')).status).toBe(404);
  const rotated = await admin('POST', `/v1/admin/api-keys/${issued.json.id}/rotate`, { overlapSeconds: 0 });
  expect(rotated.status).toBe(201);
  expect((await admin('DELETE', `/v1/admin/api-keys/${rotated.json.id}`)).status).toBe(200);
  expect((await admin('POST', `/v1/admin/api-keys/${rotated.json.id}/rotate`, {})).status).toBe(409);
  expect((await admin('GET', '/v1/admin/tenants')).status).toBe(200);
  expect((await admin('GET', '/v1/admin/tenants/openapi-co')).status).toBe(200);
  expect((await admin('GET', '/v1/admin/tenants/nobody')).status).toBe(404);
  const set = await admin('PATCH', '/v1/admin/tenants/openapi-co', { treasuryPayments: true });
  expect(set.status).toBe(200);
  expect(set.json.treasuryPayments).toBe(true);
}

/** A blink client's walk: the rules, the icon, every action's metadata and a transaction for a
 * funded wallet, and the refusals (a bad account, a body that is not JSON, one too large). */
async function driveActions(h: Harness) {
  const wallet = await createTestWallet();
  const { deps } = h.server.composition;
  await deps.chain.airdrop(wallet.address as PublicKey, deps.currencies.native, 10_000_000_000n);
  for (const currency of ['USDC', 'PROJ']) {
    const res = await h.call('POST', `/v1/api/accounts/${wallet.address}/airdrop`, {
      currency,
      amount: '1000',
    });
    expect(res.status).toBe(200);
  }
  const recipient = (await createTestWallet()).address;
  const plain = (method: string, path: string, body?: string) =>
    fetch(`${h.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    });
  const rules = (await (await plain('GET', '/actions.json')).json()) as { rules: { apiPath: string }[] };
  expect((await plain('GET', '/.well-known/actions.json')).status).toBe(200);
  expect((await plain('GET', '/v1/actions/icon.svg')).status).toBe(200);
  const fillValue = (parameter: Json): string => {
    if (parameter.type === 'select') return parameter.options[0].value;
    if (parameter.name === 'amount') return '1';
    if (parameter.type === 'url') return 'https://example.org/badge.json';
    if (parameter.pattern?.startsWith('^[1-9A-HJ')) return recipient;
    return 'Badge';
  };
  for (const { apiPath } of rules.rules) {
    const metadata = await (await plain('GET', apiPath)).json();
    const form = metadata.links.actions.at(-1);
    const href = form.href.replace(/\{(\w+)\}/g, (_: string, name: string) =>
      encodeURIComponent(fillValue(form.parameters.find((p: Json) => p.name === name))),
    );
    const posted = await plain('POST', href, JSON.stringify({ account: wallet.address }));
    expect(posted.status, `${href}: ${await posted.clone().text()}`).toBe(200);
  }
  const first = rules.rules[0]!.apiPath;
  expect((await plain('POST', `${first}?amount=1`, JSON.stringify({ account: 'nope' }))).status).toBe(400);
  expect((await plain('POST', `${first}?amount=1`, '{"account":')).status).toBe(400);
  expect((await plain('POST', `${first}?amount=1`, 'x'.repeat(9_000))).status).toBe(413);
}

/** What a wallet does with a returned transaction: sign the message into its own slot. */
async function sign(wallet: TestWallet, base64: string): Promise<string> {
  const parts = splitWireTransaction(fromBase64(base64)!)!;
  const signers = messageSigners(parts.message)!.map((k) => encodeBase58(k));
  const sigs = [...parts.signatures];
  sigs[signers.indexOf(wallet.address)] = await wallet.sign(parts.message);
  return toBase64(assembleTransaction(parts.message, sigs));
}

/** A client's life: registration, the authorization code flow, swaps, webhooks, token admin. */
async function driveInterfaceBAndOAuth(
  h: Harness,
  receiver: Server,
  events: { headers: Record<string, string>; body: string }[],
) {
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const client = await registerOAuthClient(h.baseUrl, ADMIN, { webhookUrl: hookUrl });
  const token: ClientToken = await obtainAccessToken(h.baseUrl, client);
  const reader = await obtainAccessToken(h.baseUrl, client, { scope: 'read' });
  const b = (method: string, path: string, body?: unknown, t = token.accessToken) =>
    h.call(method, path, body, { authorization: `Bearer ${t}` });
  const form = (path: string, fields: Record<string, string>, authorization?: string) =>
    fetch(`${h.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(authorization ? { authorization } : {}),
      },
      body: new URLSearchParams(fields).toString(),
    });
  const basic = basicAuth(client.clientId, client.clientSecret);

  // OAuth errors and token administration.
  expect((await fetch(`${h.baseUrl}/oauth/clients`, { method: 'POST', body: '{}' })).status).toBe(401);
  expect((await form('/oauth/token', { grant_type: 'authorization_code', code: 'nope' }, basic)).status).toBe(
    400,
  );
  expect(
    (await form('/oauth/token', { grant_type: 'refresh_token', refresh_token: 'x' }, 'Basic eDp5')).status,
  ).toBe(401);
  expect((await form('/oauth/introspect', { token: token.accessToken }, basic)).status).toBe(200);
  expect((await fetch(`${h.baseUrl}/oauth/authorize?client_id=nope`)).status).toBe(400);
  expect(
    (await fetch(`${h.baseUrl}/oauth/authorize/challenge`, { method: 'POST', body: 'not json' })).status,
  ).toBe(400);
  expect((await fetch(`${h.baseUrl}/oauth/demo/callback?code=abc&state=xyz`)).status).toBe(200);

  // Swaps: fund the wallet through interface A, quote, sign, execute.
  const wallet = token.wallet;
  for (const [currency, amount] of [
    ['SOL', '50'],
    ['USDC', '500'],
  ]) {
    expect(
      (await h.call('POST', `/v1/api/accounts/${wallet.address}/airdrop`, { currency, amount })).status,
    ).toBe(200);
  }
  expect((await b('GET', '/v1/project/swap?tokenPair=SOL-USDC&amount=1')).status).toBe(200);
  expect((await b('GET', '/v1/project/swap?tokenPair=SOL-USDC&page=0')).status).toBe(422);
  expect((await b('GET', '/v1/project/swap?tokenPair=BTC-SOL')).status).toBe(400);
  expect(
    (await h.call('GET', '/v1/project/swap?tokenPair=SOL-USDC', undefined, { authorization: '' })).status,
  ).toBe(401);
  expect(
    (await b('POST', '/v1/project/swap', { tokenPair: 'SOL-USDC', amount: '1' }, reader.accessToken)).status,
  ).toBe(403);
  const firm = await b('POST', '/v1/project/swap', { tokenPair: 'SOL-USDC', amount: '1' });
  expect(firm.status).toBe(200);
  const executed = await b('POST', '/v1/swap/execute', {
    requestId: firm.json.requestId,
    signedTransaction: await sign(wallet, firm.json.transaction),
  });
  expect(executed.status).toBe(200);
  expect(
    (await b('POST', '/v1/swap/execute', { requestId: 'swp_nope', signedTransaction: 'AA==' })).status,
  ).toBe(404);
  expect((await b('POST', '/v1/aggregator/swap', { tokenPair: 'USDC-SOL', amount: '1' })).status).toBe(200);
  expect((await b('POST', '/v1/aggregator/swap', { tokenPair: 'USDC-SOL', amount: '0.000001' })).status).toBe(
    422,
  );
  expect((await b('GET', '/v1/webhooks/secret')).status).toBe(200);

  // Inbound completion notifications, signed with WEBHOOK_SECRET.
  const notify = (body: string, headers: Record<string, string>) =>
    fetch(`${h.baseUrl}/v1/webhooks/transaction-complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  const claim = JSON.stringify({ transactionId: executed.json.transactionId, status: 'finalized' });
  const signed = createStandardWebhook(WEBHOOK_SECRET).sign('msg_openapi_1', new Date(), claim);
  expect((await notify(claim, signed)).status).toBe(200);
  expect((await notify(claim, {})).status).toBe(400);
  expect((await notify(claim, { ...signed, 'webhook-signature': 'v1,AAAA' })).status).toBe(401);
  expect((await notify('x'.repeat(300_000), signed)).status).toBe(413);

  // The swap lands and its event arrives; then the token is revoked.
  const until = Date.now() + 60_000;
  let landed: (typeof events)[number] | undefined;
  while (!landed && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    landed = events.find((e) => JSON.parse(e.body).type === 'swap.landed');
  }
  expect((await form('/oauth/revoke', { token: reader.accessToken }, basic)).status).toBe(200);
  return landed;
}
