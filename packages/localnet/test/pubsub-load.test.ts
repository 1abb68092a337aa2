import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountState } from '../src/parsed/account.js';
import type { Commitment } from '../src/pubsub/events.js';
import { createPubSubServer, type PubSubServer } from '../src/pubsub/server.js';
import { createFakeChain, type FakeChain, randomAddress, randomSignature } from './support/fake-chain.js';
import { openSocket, type TestSocket } from './support/ws-client.js';

/**
 * 1,000 subscriptions open at once, over real websockets, while 1,000 transactions land (10 a slot)
 * and the clock runs until every slot is finalized. Every notification must arrive exactly once, in
 * slot order per subscription.
 */

const CONNECTIONS = 10;
const TRANSACTIONS = 1_000;
const PER_SLOT = 10;
const LEVELS: readonly Commitment[] = ['processed', 'confirmed', 'finalized'];
// The mix of the 1,000 subscriptions.
const SIGNATURES = 600;
const ACCOUNTS = 200;
const MENTIONS = 100;
const PROGRAMS = 50;
const SLOTS = 50;

let server: PubSubServer;
let chain: FakeChain;
let sockets: TestSocket[];

beforeAll(async () => {
  server = createPubSubServer({ getAccount: (address, commitment) => chain.getAccount(address, commitment) });
  chain = createFakeChain(() => server);
  const { url } = await server.listen({ port: 0 });
  sockets = await Promise.all(Array.from({ length: CONNECTIONS }, () => openSocket(url)));
});

afterAll(async () => {
  for (const socket of sockets) await socket.close();
  await server.close();
});

interface Expectation {
  readonly socket: TestSocket;
  readonly id: number;
  /** The context slots (or slot numbers) expected, in order. */
  readonly slots: number[];
}

describe('pubsub under load', () => {
  it('delivers every notification once, in slot order, to 1,000 subscriptions while 1,000 transactions land', async () => {
    const program = randomAddress();
    const signatures = Array.from({ length: TRANSACTIONS }, () => randomSignature());
    const accounts = Array.from({ length: ACCOUNTS }, () => randomAddress());
    const mentioned = Array.from({ length: MENTIONS }, () => randomAddress());
    const firstSlot = Number(chain.slot);
    const slotOf = (tx: number) => firstSlot + Math.floor(tx / PER_SLOT);
    const range = (n: number) => Array.from({ length: n }, (_, i) => i);

    const requests: { method: string; params: unknown[]; expected: number[] }[] = [
      ...range(SIGNATURES).map((i) => ({
        method: 'signatureSubscribe',
        params: [signatures[i], { commitment: LEVELS[i % 3] }],
        expected: [slotOf(i)],
      })),
      ...range(ACCOUNTS).map((a) => ({
        method: 'accountSubscribe',
        params: [accounts[a], { encoding: 'base64', commitment: LEVELS[a % 3] }],
        // Transactions a, a+200, ... write account a: one notification per slot.
        expected: range(TRANSACTIONS / ACCOUNTS).map((k) => slotOf(a + k * ACCOUNTS)),
      })),
      ...range(MENTIONS).map((m) => ({
        method: 'logsSubscribe',
        params: [{ mentions: [mentioned[m]] }, { commitment: LEVELS[m % 3] }],
        expected: range(TRANSACTIONS / MENTIONS).map((k) => slotOf(m + k * MENTIONS)),
      })),
      ...range(PROGRAMS).map((p) => ({
        method: 'programSubscribe',
        params: [program, { encoding: 'base64', commitment: LEVELS[p % 3] }],
        // Every transaction writes one account of the program, a different one within its slot.
        expected: range(TRANSACTIONS).map(slotOf),
      })),
      ...range(SLOTS).map(() => ({ method: 'slotSubscribe', params: [], expected: [] as number[] })),
    ];
    expect(requests).toHaveLength(1_000);

    const started = performance.now();
    const expectations: Expectation[] = await Promise.all(
      requests.map(async (request, i) => {
        const socket = sockets[i % CONNECTIONS]!;
        const reply = await socket.request(request.method, request.params);
        return { socket, id: reply.result as number, slots: request.expected };
      }),
    );
    const subscribedMs = performance.now() - started;
    expect(server.subscriptionCount).toBe(1_000);
    expect(new Set(expectations.map((e) => e.id)).size).toBe(1_000);

    const feedStarted = performance.now();
    const state = (lamports: number): AccountState => ({
      lamports: BigInt(lamports),
      owner: program,
      data: Uint8Array.from([lamports % 256]),
      executable: false,
    });
    for (let tx = 0; tx < TRANSACTIONS; tx++) {
      chain.land(new Map([[accounts[tx % ACCOUNTS]!, state(tx)]]), {
        signature: signatures[tx],
        accountKeys: [accounts[tx % ACCOUNTS]!, mentioned[tx % MENTIONS]!],
      });
      if (tx % PER_SLOT === PER_SLOT - 1) chain.tick();
      // Let the sockets drain now and then, as a live event loop would.
      if (tx % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
    }
    const lastSlot = slotOf(TRANSACTIONS - 1);
    let ticks = 0;
    while (Number(chain.slot) - 1 - 32 < lastSlot) {
      chain.tick();
      ticks++;
    }
    const slotNotifications = TRANSACTIONS / PER_SLOT + ticks;
    const expectedTotal =
      expectations.reduce((sum, e) => sum + e.slots.length, 0) + SLOTS * slotNotifications;
    const received = () => sockets.reduce((sum, socket) => sum + socket.notifications.length, 0);
    await sockets[0]!.waitFor(() => received() >= expectedTotal, 50_000);
    await new Promise((resolve) => setTimeout(resolve, 200)); // anything extra would have arrived by now
    const deliveredMs = performance.now() - feedStarted;
    expect(received()).toBe(expectedTotal);

    const bySubscription = new Map<number, number[]>();
    for (const socket of sockets) {
      for (const message of socket.notifications) {
        const params = message.params as {
          subscription: number;
          result: { context?: { slot: number }; slot?: number };
        };
        const slot = params.result.context?.slot ?? params.result.slot ?? -1;
        const list = bySubscription.get(params.subscription) ?? [];
        list.push(slot);
        bySubscription.set(params.subscription, list);
      }
    }
    let ordered = 0;
    for (const expectation of expectations) {
      const got = bySubscription.get(expectation.id) ?? [];
      if (expectation.slots.length > 0) expect(got).toEqual(expectation.slots);
      else expect(got).toHaveLength(slotNotifications);
      expect(got).toEqual([...got].sort((a, b) => a - b));
      ordered++;
    }
    expect(ordered).toBe(1_000);
    // Signature subscriptions unsubscribed themselves after their one notification.
    expect(server.subscriptionCount).toBe(1_000 - SIGNATURES);

    console.log(
      [
        `pubsub load: ${expectations.length} subscriptions on ${CONNECTIONS} connections ` +
          `(${SIGNATURES} signature, ${ACCOUNTS} account, ${MENTIONS} logs, ${PROGRAMS} program, ${SLOTS} slot), ` +
          `commitments processed/confirmed/finalized in turn`,
        `  subscribed in ${subscribedMs.toFixed(0)} ms`,
        `  ${TRANSACTIONS} transactions in ${TRANSACTIONS / PER_SLOT} slots, clock run ${ticks} more slots to finalize them`,
        `  ${expectedTotal} notifications expected, ${received()} delivered, each subscription in slot order, none twice`,
        `  delivered in ${deliveredMs.toFixed(0)} ms (${Math.round(expectedTotal / (deliveredMs / 1000))} notifications/s)`,
      ].join('\n'),
    );
  });
});
