import { errAsync, okAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { encodeBase58 } from '../../domain/base58.js';
import type { PublicKey, Signature } from '../../domain/public-key.js';
import type { TenantId } from '../../domain/tenant.js';
import type { TransactionRecord } from '../../domain/transaction.js';
import { domainError } from '../../errors.js';
import {
  createWebhookEndpoint,
  createWebhookEndpointForTenant,
  DEFAULT_TENANT,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  MAX_ENDPOINTS_PER_TENANT,
  publishTransactionEvents,
} from '../../index.js';
import type { OutboundUrlPolicy } from '../../ports/outbound.js';
import {
  createFixedClock,
  createInMemoryStore,
  createInMemoryWebhookEndpointStore,
  createInMemoryWebhookStore,
} from '../../testing/index.js';

const ACME = 'acme' as TenantId;
const random = (n: number) => encodeBase58(crypto.getRandomValues(new Uint8Array(n)));

/** The SSRF guard's contract, with the decision made on the host name alone. */
const refusing = (...hosts: string[]): OutboundUrlPolicy => ({
  check: (url) =>
    hosts.includes(new URL(url).hostname)
      ? errAsync(
          domainError(
            'INVALID_INPUT',
            `webhook URL host ${new URL(url).hostname} resolves to a loopback address`,
          ),
        )
      : okAsync(undefined),
});

function setup(outbound: OutboundUrlPolicy = refusing('127.0.0.1')) {
  const clock = createFixedClock(new Date('2025-06-01T00:00:00.000Z'));
  const store = createInMemoryStore({ clock });
  const endpoints = createInMemoryWebhookEndpointStore({ store });
  const webhooks = createInMemoryWebhookStore({ clock });
  return { clock, store, endpoints, webhooks, deps: { endpoints, outbound, clock, webhooks } };
}

function pending(tenant: TenantId, at: Date): TransactionRecord {
  return {
    id: random(64) as Signature,
    tenant,
    kind: 'charity_donation',
    status: 'pending',
    currency: 'USDC',
    amount: 5_000_000n,
    from: random(32) as PublicKey,
    to: random(32) as PublicKey,
    computeUnitLimit: 200_000,
    wire: new Uint8Array(10),
    blockhash: random(32),
    lastValidBlockHeight: 10n,
    createdAt: at,
    updatedAt: at,
  };
}

describe('interface A webhook endpoints', () => {
  it('registers an endpoint the guard allows, for that tenant only', async () => {
    const { deps } = setup();
    const made = (
      await createWebhookEndpoint(deps, {
        tenant: ACME,
        url: 'https://hooks.example.com/a',
        description: 'orders',
      })
    )._unsafeUnwrap();
    expect(made).toMatchObject({ tenant: ACME, url: 'https://hooks.example.com/a', description: 'orders' });
    expect(made.id).toMatch(/^we_[0-9a-z]{25}$/);
    expect((await listWebhookEndpoints(deps, { tenant: ACME }))._unsafeUnwrap()).toEqual([made]);
    expect((await listWebhookEndpoints(deps, { tenant: DEFAULT_TENANT }))._unsafeUnwrap()).toEqual([]);
    expect((await getWebhookEndpoint(deps, { tenant: ACME, id: made.id }))._unsafeUnwrap()).toEqual(made);
    const theirs = await getWebhookEndpoint(deps, { tenant: DEFAULT_TENANT, id: made.id });
    const unknown = await getWebhookEndpoint(deps, { tenant: DEFAULT_TENANT, id: 'we_unknown' });
    expect(theirs._unsafeUnwrapErr().code).toBe('WEBHOOK_ENDPOINT_NOT_FOUND');
    expect(theirs._unsafeUnwrapErr().message.replace(made.id, 'X')).toBe(
      unknown._unsafeUnwrapErr().message.replace('we_unknown', 'X'),
    );
    expect(
      (await deleteWebhookEndpoint(deps, { tenant: DEFAULT_TENANT, id: made.id }))._unsafeUnwrapErr().code,
    ).toBe('WEBHOOK_ENDPOINT_NOT_FOUND');
    expect((await deleteWebhookEndpoint(deps, { tenant: ACME, id: made.id }))._unsafeUnwrap()).toEqual({
      cancelledDeliveries: 0,
    });
  });

  it('refuses what the guard refuses, bad URLs and descriptions, and more than the cap', async () => {
    const { deps } = setup();
    const refused = await createWebhookEndpoint(deps, { tenant: ACME, url: 'http://127.0.0.1:6379/' });
    expect(refused._unsafeUnwrapErr()).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/loopback/),
    });
    for (const url of [
      undefined,
      42,
      '',
      'relative/path',
      'https://u:p@hooks.example.com/',
      `https://h.example/${'a'.repeat(2048)}`,
    ]) {
      expect(
        (await createWebhookEndpoint(deps, { tenant: ACME, url }))._unsafeUnwrapErr().code,
        String(url).slice(0, 30),
      ).toBe('INVALID_INPUT');
    }
    for (const description of [7, 'x'.repeat(129), 'a\u0000b']) {
      const out = await createWebhookEndpoint(deps, {
        tenant: ACME,
        url: 'https://hooks.example.com/',
        description,
      });
      expect(out._unsafeUnwrapErr().code).toBe('INVALID_INPUT');
    }
    for (let i = 0; i < MAX_ENDPOINTS_PER_TENANT; i++) {
      expect(
        (await createWebhookEndpoint(deps, { tenant: ACME, url: `https://hooks.example.com/${i}` })).isOk(),
      ).toBe(true);
    }
    const over = await createWebhookEndpoint(deps, { tenant: ACME, url: 'https://hooks.example.com/over' });
    expect(over._unsafeUnwrapErr().message).toMatch(/at most 10/);
    expect(
      (
        await createWebhookEndpoint(deps, { tenant: DEFAULT_TENANT, url: 'https://hooks.example.com/' })
      ).isOk(),
    ).toBe(true);
  });

  it("the operator's registration needs an existing, well-formed tenant", async () => {
    const { deps, store, clock } = setup();
    const withStore = { ...deps, store };
    const url = 'https://hooks.example.com/';
    expect(
      (await createWebhookEndpointForTenant(withStore, { tenant: 'acme', url }))._unsafeUnwrapErr().code,
    ).toBe('TENANT_NOT_FOUND');
    expect(
      (await createWebhookEndpointForTenant(withStore, { tenant: 'Not A Tenant', url }))._unsafeUnwrapErr()
        .code,
    ).toBe('INVALID_INPUT');
    await store.tenants.ensure(ACME, { treasuryPayments: false }, clock.now());
    expect(
      (await createWebhookEndpointForTenant(withStore, { tenant: 'acme', url }))._unsafeUnwrap().tenant,
    ).toBe(ACME);
  });

  it('publishes each status change to the endpoints of its tenant only, as Standard Webhooks events', async () => {
    const { deps, store, webhooks, clock } = setup();
    const mine = (
      await createWebhookEndpoint(deps, { tenant: ACME, url: 'https://hooks.example.com/a' })
    )._unsafeUnwrap();
    const a = pending(ACME, clock.now());
    const other = pending(DEFAULT_TENANT, clock.now());
    await store.transactions.insert(a);
    await store.transactions.insert(other);
    clock.advance(1500);
    await store.transactions.transition(a.id, 'pending', 'failed', {
      error: 'InstructionError: 0x1',
      slot: 9n,
    });
    await store.transactions.transition(other.id, 'pending', 'confirmed');

    const out = (await publishTransactionEvents({ ...deps, maxAttempts: 4 }))._unsafeUnwrap();
    expect(out).toEqual({ events: 2, queued: 1 });
    const [delivery] = webhooks.list();
    expect(delivery).toMatchObject({
      id: `msg_${mine.id}_1`,
      clientId: `endpoint:${mine.id}`,
      eventType: 'transaction.failed',
      maxAttempts: 4,
    });
    expect(JSON.parse(delivery!.payload)).toEqual({
      type: 'transaction.failed',
      timestamp: '2025-06-01T00:00:01.500Z',
      data: {
        transactionId: a.id,
        kind: 'charity_donation',
        status: 'failed',
        previousStatus: 'pending',
        slot: '9',
        error: 'InstructionError: 0x1',
      },
    });
    expect((await publishTransactionEvents({ ...deps, maxAttempts: 4 }))._unsafeUnwrap()).toEqual({
      events: 0,
      queued: 0,
    });
  });

  it('works through more changes than one page in one call, up to its page cap', async () => {
    const { deps, store, webhooks, clock } = setup();
    await createWebhookEndpoint(deps, { tenant: ACME, url: 'https://hooks.example.com/a' });
    const records = Array.from({ length: 7 }, () => pending(ACME, clock.now()));
    for (const r of records) await store.transactions.insert(r);
    for (const r of records) await store.transactions.transition(r.id, 'pending', 'confirmed');

    // Pages of 3: two full ones, then a short one ends the call.
    expect(
      (await publishTransactionEvents({ ...deps, maxAttempts: 4 }, { limit: 3 }))._unsafeUnwrap(),
    ).toEqual({ events: 7, queued: 7 });
    expect(webhooks.list()).toHaveLength(7);

    // A cap of one page leaves the rest to the next call, oldest first.
    for (const r of records) await store.transactions.transition(r.id, 'confirmed', 'finalized');
    expect(
      (await publishTransactionEvents({ ...deps, maxAttempts: 4 }, { limit: 3, pages: 1 }))._unsafeUnwrap(),
    ).toEqual({ events: 3, queued: 3 });
    expect(
      (await publishTransactionEvents({ ...deps, maxAttempts: 4 }, { limit: 3, pages: 5 }))._unsafeUnwrap(),
    ).toEqual({ events: 4, queued: 4 });
    expect(webhooks.list()).toHaveLength(14);
  });
});
