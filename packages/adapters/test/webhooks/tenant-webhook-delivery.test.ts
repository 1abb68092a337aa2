import { lookup } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createWebhookEndpoint,
  DEFAULT_SWAP_POLICIES,
  DEFAULT_TENANT,
  deliverWebhooks,
  ENDPOINT_SIGNER_PREFIX,
  publishTransactionEvents,
  type Signature,
  type WebhookEndpoint,
} from '@token-actions/core';
import { createFixedClock, type FixedClock } from '@token-actions/core/testing';
import type { ResultAsync } from 'neverthrow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deriveKey } from '../../src/crypto/derive.js';
import {
  createPgStore,
  createPgWebhookEndpointStore,
  createPgWebhookStore,
  type SqlClient,
} from '../../src/store/index.js';
import {
  createOutboundGuard,
  createStandardWebhook,
  createWebhookSender,
  deriveClientWebhookSecret,
  type HostResolver,
} from '../../src/webhooks/index.js';
import { createMigratedPglite, pendingTransaction, truncateAll } from '../store/harness.js';

async function unwrap<T, E>(pending: ResultAsync<T, E>): Promise<T> {
  const settled = await pending;
  if (settled.isErr()) throw new Error(`unexpected failure: ${JSON.stringify(settled.error)}`);
  return settled.value;
}

/** A hostile zone (a public-looking name whose address is the loopback); other names go to the system resolver. */
const rebinding: HostResolver = async (host) => {
  if (host === 'hooks.attacker.test') return [{ address: '127.0.0.1', family: 4 }];
  const found = await lookup(host, { all: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }) as const);
};

interface Received {
  headers: Record<string, string>;
  body: string;
}

/**
 * Interface A webhooks end to end on real components: the PostgreSQL store (PGlite) whose status
 * move writes the outbox row, the publish pass, the Standard Webhooks sender and the SSRF guard,
 * against a real HTTP receiver on the loopback.
 */
describe('interface A webhook delivery', () => {
  let sql: SqlClient;
  let receiver: Server;
  let port: number;
  const received: Received[] = [];
  const answers: number[] = [];
  let clock: FixedClock;
  const endpointKey = deriveKey(new Uint8Array(32).fill(3), 'tenant-webhook-signing');
  const secretFor = (signer: string) =>
    deriveClientWebhookSecret(endpointKey, signer.slice(ENDPOINT_SIGNER_PREFIX.length));

  beforeAll(async () => {
    sql = await createMigratedPglite();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body });
        res.writeHead(answers.shift() ?? 204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    port = (receiver.address() as AddressInfo).port;
  }, 60_000);
  afterAll(async () => {
    await sql?.close();
    await new Promise<void>((r) => receiver?.close(() => r()));
  });
  beforeEach(async () => {
    await truncateAll(sql);
    await sql.query('TRUNCATE webhook_deliveries');
    received.length = 0;
    answers.length = 0;
    clock = createFixedClock(new Date());
  });

  function subject(allowPrivateAtDelivery: boolean) {
    const store = createPgStore(sql, { clock });
    const endpoints = createPgWebhookEndpointStore(sql);
    const webhooks = createPgWebhookStore(sql);
    const sender = createWebhookSender({
      guard: createOutboundGuard({ allowPrivate: allowPrivateAtDelivery, resolve: rebinding }),
      secretFor,
      timeoutMs: 5_000,
    });
    const deliver = () =>
      unwrap(
        deliverWebhooks({
          webhooks,
          webhookSender: sender,
          clock,
          swapPolicies: DEFAULT_SWAP_POLICIES,
          random: () => 0.5,
        }),
      );
    const publish = () => unwrap(publishTransactionEvents({ endpoints, webhooks, clock, maxAttempts: 3 }));
    return { store, endpoints, webhooks, deliver, publish };
  }

  /** Registers `url` while private targets are allowed (a development setting, or DNS that changed since). */
  async function registerWhileAllowed(s: ReturnType<typeof subject>, url: string): Promise<WebhookEndpoint> {
    const permissive = createOutboundGuard({ allowPrivate: true, resolve: rebinding });
    return unwrap(
      createWebhookEndpoint(
        { endpoints: s.endpoints, outbound: permissive, clock },
        { tenant: DEFAULT_TENANT, url },
      ),
    );
  }

  async function confirmOneTransaction(s: ReturnType<typeof subject>): Promise<Signature> {
    const record = pendingTransaction(DEFAULT_TENANT, clock.now());
    await unwrap(s.store.transactions.insert(record));
    expect(
      await unwrap(s.store.transactions.transition(record.id, 'pending', 'confirmed', { slot: 77n })),
    ).toBe(true);
    return record.id;
  }

  it('delivers a signed transaction.confirmed that verifies with the endpoint secret, and retries it with the same webhook-id', async () => {
    const s = subject(true);
    const endpoint = await registerWhileAllowed(s, `http://127.0.0.1:${port}/hook`);
    const id = await confirmOneTransaction(s);
    expect(await s.publish()).toEqual({ events: 1, queued: 1 });

    answers.push(503);
    expect(await s.deliver()).toEqual({ delivered: 0, retrying: 1, dead: 0 });
    // Nothing is due before the backoff has passed.
    expect(await s.deliver()).toEqual({ delivered: 0, retrying: 0, dead: 0 });
    // The first retry waits between half and all of the base delay; the receiver's 5 minute
    // tolerance is checked against the real clock, so the test clock moves no further than that.
    clock.advance(DEFAULT_SWAP_POLICIES.webhookRetryBaseMs);
    expect(await s.deliver()).toEqual({ delivered: 1, retrying: 0, dead: 0 });

    expect(received).toHaveLength(2);
    const [first, retry] = received as [Received, Received];
    expect(first.headers['webhook-id']).toMatch(new RegExp(`^msg_${endpoint.id}_\\d+$`));
    expect(retry.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(retry.body).toBe(first.body);
    const secret = deriveClientWebhookSecret(endpointKey, endpoint.id);
    for (const attempt of received) {
      expect(createStandardWebhook(secret).verify(attempt.body, attempt.headers)).toMatchObject({ ok: true });
    }
    // Another endpoint's secret (or a client's) does not verify it.
    const other = deriveClientWebhookSecret(endpointKey, 'we_other');
    expect(createStandardWebhook(other).verify(first.body, first.headers)).toMatchObject({
      ok: false,
      reason: 'bad_signature',
    });
    expect(JSON.parse(first.body)).toEqual({
      type: 'transaction.confirmed',
      timestamp: expect.any(String),
      data: {
        transactionId: id,
        kind: 'donation',
        status: 'confirmed',
        previousStatus: 'pending',
        slot: '77',
      },
    });
    // Published once: a second pass queues nothing more.
    expect(await s.publish()).toEqual({ events: 0, queued: 0 });
  });

  it('refuses at delivery an endpoint registered while allowed, by IP and by a name that resolves to 127.0.0.1', async () => {
    const s = subject(false);
    const byAddress = await registerWhileAllowed(s, `http://127.0.0.1:${port}/hook`);
    const byName = await registerWhileAllowed(s, `http://hooks.attacker.test:${port}/hook`);
    // localhost through the system resolver, as a connection would resolve it.
    const byLocalhost = await registerWhileAllowed(s, `http://localhost:${port}/hook`);
    await confirmOneTransaction(s);
    expect(await s.publish()).toEqual({ events: 1, queued: 3 });

    for (let attempt = 0; attempt < 3; attempt++) {
      await s.deliver();
      clock.advance(DEFAULT_SWAP_POLICIES.webhookRetryMaxMs);
    }
    expect(received).toEqual([]);
    const [sequence] = (
      await sql.query<{ id: string }>('SELECT id::text AS id FROM transaction_events ORDER BY id')
    ).rows.map((r) => r.id);
    for (const endpoint of [byAddress, byName, byLocalhost]) {
      const delivery = await unwrap(s.webhooks.get(`msg_${endpoint.id}_${sequence}`));
      expect(delivery?.status).toBe('dead');
      expect(delivery?.attempts).toBe(3);
      expect(delivery?.lastError).toMatch(/resolves to a loopback address \((127\.0\.0\.1|::1)\)/);
    }
  });
});
