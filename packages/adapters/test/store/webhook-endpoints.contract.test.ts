import {
  DEFAULT_TENANT,
  deleteWebhookEndpoint,
  domainError,
  publishTransactionEvents,
  type StorePort,
  type TenantId,
  type WebhookEndpoint,
  type WebhookEndpointStore,
  type WebhookStore,
} from '@token-actions/core';
import {
  createFixedClock,
  createInMemoryStore,
  createInMemoryWebhookEndpointStore,
  createInMemoryWebhookStore,
  type FixedClock,
} from '@token-actions/core/testing';
import { errAsync, type ResultAsync } from 'neverthrow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createPgStore,
  createPgWebhookEndpointStore,
  createPgWebhookStore,
  type SqlClient,
} from '../../src/store/index.js';
import {
  createMigratedPglite,
  createPostgresSchema,
  POSTGRES_REACHABLE,
  pendingTransaction,
  truncateAll,
} from './harness.js';

async function unwrap<T, E>(pending: ResultAsync<T, E>): Promise<T> {
  return (await pending)._unsafeUnwrap();
}

interface Subject {
  store: StorePort;
  endpoints: WebhookEndpointStore;
  webhooks: WebhookStore;
}

interface Variant {
  name: string;
  skip?: boolean;
  setup(): Promise<void>;
  fresh(clock: FixedClock): Promise<Subject>;
  teardown(): Promise<void>;
}

function pgVariant(
  name: string,
  open: () => Promise<{ sql: SqlClient; close(): Promise<void> }>,
  skip = false,
): Variant {
  let opened: { sql: SqlClient; close(): Promise<void> } | undefined;
  return {
    name,
    skip,
    async setup() {
      opened = await open();
    },
    async fresh(clock) {
      const sql = opened!.sql;
      await truncateAll(sql);
      await sql.query('TRUNCATE webhook_deliveries');
      return {
        store: createPgStore(sql, { clock }),
        endpoints: createPgWebhookEndpointStore(sql),
        webhooks: createPgWebhookStore(sql),
      };
    },
    async teardown() {
      await opened?.close();
    },
  };
}

const variants: Variant[] = [
  {
    name: 'in-memory fake',
    async setup() {},
    async fresh(clock) {
      const store = createInMemoryStore({ clock });
      return {
        store,
        endpoints: createInMemoryWebhookEndpointStore({ store }),
        webhooks: createInMemoryWebhookStore({ clock }),
      };
    },
    async teardown() {},
  },
  pgVariant('PGlite', async () => {
    const sql = await createMigratedPglite();
    return { sql, close: () => sql.close() };
  }),
  pgVariant(
    'PostgreSQL',
    async () => {
      const schema = await createPostgresSchema();
      return { sql: schema.sql, close: () => schema.drop() };
    },
    !POSTGRES_REACHABLE,
  ),
];

const ACME = 'acme' as TenantId;

const txRecord = (tenant: TenantId, clock: FixedClock) => pendingTransaction(tenant, clock.now());

function endpoint(tenant: TenantId, id: string, clock: FixedClock): WebhookEndpoint {
  return {
    id,
    tenant,
    url: `https://hooks.example.com/${id}`,
    description: 'orders',
    createdAt: clock.now(),
  };
}

describe.each(variants)('WebhookEndpointStore contract: $name', (variant) => {
  describe.skipIf(Boolean(variant.skip))('semantics', () => {
    let clock: FixedClock;
    let s: Subject;

    beforeAll(() => variant.setup(), 60_000);
    afterAll(() => variant.teardown());
    beforeEach(async () => {
      clock = createFixedClock(new Date('2025-03-01T12:00:00.000Z'));
      s = await variant.fresh(clock);
      await unwrap(s.store.tenants.ensure(ACME, { treasuryPayments: false }, clock.now()));
    });

    it('keeps each endpoint to its tenant: another tenant neither lists, reads nor deletes it', async () => {
      await unwrap(s.endpoints.create(endpoint(ACME, 'we_a1', clock)));
      clock.advance(1000);
      await unwrap(s.endpoints.create(endpoint(ACME, 'we_a2', clock)));
      await unwrap(s.endpoints.create(endpoint(DEFAULT_TENANT, 'we_d1', clock)));

      expect((await unwrap(s.endpoints.list(ACME))).map((e) => e.id)).toEqual(['we_a1', 'we_a2']);
      expect((await unwrap(s.endpoints.list(DEFAULT_TENANT))).map((e) => e.id)).toEqual(['we_d1']);
      expect(await unwrap(s.endpoints.get('we_a1', ACME))).toEqual(
        endpoint(ACME, 'we_a1', createFixedClock(new Date('2025-03-01T12:00:00.000Z'))),
      );
      expect(await unwrap(s.endpoints.get('we_a1', DEFAULT_TENANT))).toBeNull();
      expect(await unwrap(s.endpoints.remove('we_a1', DEFAULT_TENANT))).toBe(false);
      expect(await unwrap(s.endpoints.get('we_a1', ACME))).not.toBeNull();
      expect(await unwrap(s.endpoints.remove('we_a1', ACME))).toBe(true);
      expect(await unwrap(s.endpoints.remove('we_a1', ACME))).toBe(false);
      expect((await unwrap(s.endpoints.list(ACME))).map((e) => e.id)).toEqual(['we_a2']);
    });

    it('reads every status change once from the outbox, in order, with its tenant and kind', async () => {
      const a = txRecord(ACME, clock);
      const d = txRecord(DEFAULT_TENANT, clock);
      await unwrap(s.store.transactions.insert(a));
      await unwrap(s.store.transactions.insert(d));
      expect(await unwrap(s.store.transactions.transition(a.id, 'pending', 'confirmed', { slot: 42n }))).toBe(
        true,
      );
      // A lost compare-and-set race writes no change.
      expect(await unwrap(s.store.transactions.transition(a.id, 'pending', 'confirmed'))).toBe(false);
      expect(
        await unwrap(s.store.transactions.transition(d.id, 'pending', 'failed', { error: 'boom' })),
      ).toBe(true);
      expect(await unwrap(s.store.transactions.transition(a.id, 'confirmed', 'finalized'))).toBe(true);

      const events = await unwrap(s.endpoints.listUnpublished(10));
      expect(events.map((e) => [e.tenant, e.transactionId, e.kind, e.from, e.to])).toEqual([
        [ACME, a.id, 'donation', 'pending', 'confirmed'],
        [DEFAULT_TENANT, d.id, 'donation', 'pending', 'failed'],
        [ACME, a.id, 'donation', 'confirmed', 'finalized'],
      ]);
      expect(events[1]!.error).toBe('boom');
      expect(events[0]!.slot).toBe(42n);
      const sequences = events.map((e) => BigInt(e.sequence));
      expect([...sequences].sort((x, y) => (x < y ? -1 : 1))).toEqual(sequences);
      expect((await unwrap(s.endpoints.listUnpublished(1))).map((e) => e.sequence)).toEqual([
        events[0]!.sequence,
      ]);

      await unwrap(s.endpoints.markPublished([events[0]!.sequence, events[1]!.sequence], clock.now()));
      await unwrap(s.endpoints.markPublished([events[0]!.sequence], clock.now()));
      expect((await unwrap(s.endpoints.listUnpublished(10))).map((e) => e.sequence)).toEqual([
        events[2]!.sequence,
      ]);
      await unwrap(s.endpoints.markPublished([], clock.now()));
    });

    it("queues one delivery per endpoint of the transaction's tenant, and a re-run after a crash queues nothing twice", async () => {
      await unwrap(s.endpoints.create(endpoint(ACME, 'we_a1', clock)));
      await unwrap(s.endpoints.create(endpoint(ACME, 'we_a2', clock)));
      const a = txRecord(ACME, clock);
      const d = txRecord(DEFAULT_TENANT, clock);
      await unwrap(s.store.transactions.insert(a));
      await unwrap(s.store.transactions.insert(d));
      await unwrap(s.store.transactions.transition(a.id, 'pending', 'confirmed'));
      await unwrap(s.store.transactions.transition(d.id, 'pending', 'confirmed'));
      const [event] = await unwrap(s.endpoints.listUnpublished(1));

      // The process dies after queueing, before marking the changes published.
      const crashing: WebhookEndpointStore = {
        ...s.endpoints,
        markPublished: () => errAsync(domainError('STORE_UNAVAILABLE', 'killed')),
      };
      const deps = { webhooks: s.webhooks, clock, maxAttempts: 5 };
      const first = await publishTransactionEvents({ ...deps, endpoints: crashing });
      expect(first.isErr()).toBe(true);
      const again = await unwrap(publishTransactionEvents({ ...deps, endpoints: s.endpoints }));
      expect(again).toEqual({ events: 2, queued: 0 });
      expect(await unwrap(s.endpoints.listUnpublished(10))).toEqual([]);

      for (const id of ['we_a1', 'we_a2']) {
        const delivery = await unwrap(s.webhooks.get(`msg_${id}_${event!.sequence}`));
        expect(delivery).toMatchObject({
          url: `https://hooks.example.com/${id}`,
          clientId: `endpoint:${id}`,
          eventType: 'transaction.confirmed',
          status: 'pending',
          maxAttempts: 5,
        });
        expect(JSON.parse(delivery!.payload)).toEqual({
          type: 'transaction.confirmed',
          timestamp: clock.now().toISOString(),
          data: { transactionId: a.id, kind: 'donation', status: 'confirmed', previousStatus: 'pending' },
        });
      }
      // The default tenant has no endpoint: its change is published and sent nowhere.
      const due = await unwrap(s.webhooks.claimDue(clock.now(), 10, 1000));
      expect(due.map((x) => x.id).sort()).toEqual([
        `msg_we_a1_${event!.sequence}`,
        `msg_we_a2_${event!.sequence}`,
      ]);
    });

    it("deleting an endpoint ends its queued deliveries and no other's; another tenant cannot", async () => {
      await unwrap(s.endpoints.create(endpoint(ACME, 'we_gone', clock)));
      await unwrap(s.endpoints.create(endpoint(ACME, 'we_kept', clock)));
      const a = txRecord(ACME, clock);
      await unwrap(s.store.transactions.insert(a));
      await unwrap(s.store.transactions.transition(a.id, 'pending', 'confirmed'));
      await unwrap(
        publishTransactionEvents({ endpoints: s.endpoints, webhooks: s.webhooks, clock, maxAttempts: 5 }),
      );
      const due = await unwrap(s.webhooks.claimDue(clock.now(), 10, 0));
      expect(due).toHaveLength(2);
      const event = due[0]!.id.split('_').pop();

      const deps = { endpoints: s.endpoints, webhooks: s.webhooks };
      const refused = await deleteWebhookEndpoint(deps, { tenant: DEFAULT_TENANT, id: 'we_gone' });
      expect(refused._unsafeUnwrapErr().code).toBe('WEBHOOK_ENDPOINT_NOT_FOUND');
      expect((await unwrap(s.webhooks.get(`msg_we_gone_${event}`)))?.status).toBe('pending');

      expect(await unwrap(deleteWebhookEndpoint(deps, { tenant: ACME, id: 'we_gone' }))).toEqual({
        cancelledDeliveries: 1,
      });
      const gone = await unwrap(s.webhooks.get(`msg_we_gone_${event}`));
      expect(gone).toMatchObject({ status: 'dead', lastError: 'the webhook endpoint was deleted' });
      expect((await unwrap(s.webhooks.get(`msg_we_kept_${event}`)))?.status).toBe('pending');
      // A late attempt of the cancelled delivery records nothing over it.
      await unwrap(
        s.webhooks.recordAttempt(`msg_we_gone_${event}`, { delivered: true, statusCode: 200 }, clock.now()),
      );
      expect((await unwrap(s.webhooks.get(`msg_we_gone_${event}`)))?.status).toBe('dead');
      const nul = await deleteWebhookEndpoint(deps, { tenant: ACME, id: 'we_\u0000' });
      expect(nul._unsafeUnwrapErr().code).toBe('WEBHOOK_ENDPOINT_NOT_FOUND');
    });
  });
});
