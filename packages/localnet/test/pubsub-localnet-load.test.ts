import { Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction } from '@solana/web3.js';
import { encodeBase58 } from '@token-actions/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Served, serve } from './support/serve.js';
import { openSocket, type TestSocket } from './support/ws-client.js';

/**
 * 1,000 subscriptions open at once on the localnet's own websocket while 1,000 real transfers land
 * through its JSON-RPC and the slot clock runs on its timer until every slot is finalized. Each
 * subscription must receive exactly the notifications the landings owe it, once each, in slot
 * order. Expectations are worked out from where each transaction actually landed.
 */

const LEVELS = ['processed', 'confirmed', 'finalized'] as const;
type Level = (typeof LEVELS)[number];
const CONNECTIONS = 10;
const WALLETS = 100;
const TRANSACTIONS = 1_000;
const BATCH = 50;
const SYSTEM_PROGRAM = SystemProgram.programId.toBase58();
// The mix of the 1,000 subscriptions.
const SIGNATURES = 400;
const ACCOUNTS = 300; // every wallet at each level
const MENTIONS = 90;
const ALL_LOGS = 10;
const PROGRAMS = 50;
const SLOTS = 150;

let served: Served;
let sockets: TestSocket[];

beforeAll(async () => {
  served = await serve({ slotIntervalMs: 25, finalityDepthSlots: 8, blockhashValiditySlots: 5_000 });
  sockets = await Promise.all(Array.from({ length: CONNECTIONS }, () => openSocket(served.rpc.wsUrl)));
});

afterAll(async () => {
  for (const socket of sockets) await socket.close();
  await served.close();
});

async function until(predicate: () => boolean, timeoutMs: number, what: string) {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Sub {
  readonly method: string;
  readonly params: unknown[];
  /** Context slots owed, in order; undefined for slot subscriptions (checked as a run of slots). */
  expected?: number[];
  id?: number;
}

describe('pubsub on the localnet under load', () => {
  it('delivers every notification once, in slot order, to 1,000 subscriptions while 1,000 transactions land', async () => {
    const { localnet } = served;
    const wallets = Array.from({ length: WALLETS }, () => Keypair.generate());
    for (const wallet of wallets) localnet.fund(wallet.publicKey.toBase58(), BigInt(LAMPORTS_PER_SOL));
    // Nothing of the funding may still be owed to a subscription made now.
    const funded = localnet.slot();
    await until(() => localnet.committedSlot('finalized') > funded, 30_000, 'the funding to finalize');

    const { blockhash } = await localnet.latestBlockhash();
    const transfers = Array.from({ length: TRANSACTIONS }, (_, k) => {
      const from = wallets[k % WALLETS]!;
      const to = wallets[(k + 1 + (k % (WALLETS - 1))) % WALLETS]!;
      const tx = new Transaction({ feePayer: from.publicKey, recentBlockhash: blockhash }).add(
        SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to.publicKey, lamports: 1_000 + k }),
      );
      tx.sign(from);
      return {
        wire: tx.serialize().toString('base64'),
        signature: tx.signatures[0]!.signature!,
        from: from.publicKey.toBase58(),
        to: to.publicKey.toBase58(),
      };
    });
    const signatures = transfers.map((transfer) => encodeBase58(transfer.signature));
    const addresses = wallets.map((wallet) => wallet.publicKey.toBase58());

    const subs: Sub[] = [
      ...Array.from({ length: SIGNATURES }, (_, i) => ({
        method: 'signatureSubscribe',
        params: [signatures[i * 2], { commitment: LEVELS[i % 3], enableReceivedNotification: i % 4 === 0 }],
      })),
      ...Array.from({ length: ACCOUNTS }, (_, i) => ({
        method: 'accountSubscribe',
        params: [addresses[i % WALLETS], { commitment: LEVELS[Math.floor(i / WALLETS)], encoding: 'base64' }],
      })),
      ...Array.from({ length: MENTIONS }, (_, i) => ({
        method: 'logsSubscribe',
        params: [{ mentions: [addresses[i]] }, { commitment: LEVELS[i % 3] }],
      })),
      ...Array.from({ length: ALL_LOGS }, (_, i) => ({
        method: 'logsSubscribe',
        params: ['all', { commitment: LEVELS[i % 3] }],
      })),
      ...Array.from({ length: PROGRAMS }, (_, i) => ({
        method: 'programSubscribe',
        params: [
          SYSTEM_PROGRAM,
          { commitment: LEVELS[i % 3], encoding: 'base64', filters: [{ dataSize: 0 }] },
        ],
      })),
      ...Array.from({ length: SLOTS }, () => ({ method: 'slotSubscribe', params: [] })),
    ];
    expect(subs).toHaveLength(1_000);
    const subscribeStarted = performance.now();
    await Promise.all(
      subs.map(async (sub, i) => {
        const reply = await sockets[i % CONNECTIONS]!.request(sub.method, sub.params);
        sub.id = reply.result as number;
      }),
    );
    const subscribedMs = performance.now() - subscribeStarted;
    expect(served.rpc.pubsub.subscriptionCount).toBe(1_000);
    const firstSlot = localnet.slot();

    const landStarted = performance.now();
    for (let start = 0; start < TRANSACTIONS; start += BATCH) {
      const batch = transfers.slice(start, start + BATCH).map((transfer, i) => ({
        jsonrpc: '2.0',
        id: start + i,
        method: 'sendTransaction',
        params: [transfer.wire, { encoding: 'base64' }],
      }));
      const response = await fetch(served.rpc.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(batch),
      });
      const answers = (await response.json()) as { result?: string; error?: unknown }[];
      expect(answers.map((answer) => answer.result)).toEqual(signatures.slice(start, start + BATCH));
    }
    const landedMs = performance.now() - landStarted;

    // Where each one landed decides what is owed.
    const slotOf = signatures.map((signature) => Number(localnet.landed(signature)!.slot));
    const lastSlot = Math.max(...slotOf);
    const distinct = (slots: number[]) => [...new Set(slots)];
    const touching = (address: string) =>
      transfers.flatMap((t, k) => (t.from === address || t.to === address ? [slotOf[k]!] : []));
    for (const sub of subs) {
      const [target, config] = sub.params as [
        unknown,
        { commitment: Level; enableReceivedNotification?: boolean },
      ];
      if (sub.method === 'signatureSubscribe') {
        const slot = slotOf[signatures.indexOf(target as string)]!;
        sub.expected = config.enableReceivedNotification ? [slot, slot] : [slot];
      } else if (sub.method === 'accountSubscribe') {
        // At processed each landing is announced as it happens; higher levels once per slot.
        const slots = touching(target as string);
        sub.expected = config.commitment === 'processed' ? slots : distinct(slots);
      } else if (sub.method === 'logsSubscribe') {
        sub.expected = target === 'all' ? slotOf : touching((target as { mentions: string[] }).mentions[0]!);
      } else if (sub.method === 'programSubscribe') {
        // Both wallets of a transfer are written; per slot, each written wallet once.
        sub.expected =
          config.commitment === 'processed'
            ? slotOf.flatMap((slot) => [slot, slot])
            : distinct(slotOf).flatMap((slot) => {
                const written = new Set(
                  transfers.flatMap((t, k) => (slotOf[k] === slot ? [t.from, t.to] : [])),
                );
                return Array.from(written, () => slot);
              });
      }
    }
    const owed = subs.reduce((sum, sub) => sum + (sub.expected?.length ?? 0), 0);

    const bySubscription = new Map<number, number[]>();
    const collect = () => {
      bySubscription.clear();
      for (const socket of sockets) {
        for (const message of socket.notifications) {
          const { subscription, result } = message.params as {
            subscription: number;
            result: { context?: { slot: number }; slot?: number };
          };
          const list = bySubscription.get(subscription) ?? [];
          list.push(result.context?.slot ?? result.slot!);
          bySubscription.set(subscription, list);
        }
      }
    };
    const received = () =>
      subs.reduce((sum, sub) => sum + (sub.expected ? (bySubscription.get(sub.id!)?.length ?? 0) : 0), 0);
    await until(
      () => {
        collect();
        return localnet.committedSlot('finalized') >= lastSlot && received() >= owed;
      },
      120_000,
      'every notification',
    );
    const deliveredMs = performance.now() - landStarted;
    // Anything delivered twice or late would show up by now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    collect();

    let slotNotifications = 0;
    for (const sub of subs) {
      const got = bySubscription.get(sub.id!) ?? [];
      if (sub.expected) {
        expect(got).toEqual(sub.expected);
      } else {
        // A slot subscription hears every slot once, in order, from the first after it was made.
        expect(got.length).toBeGreaterThan(lastSlot - Number(firstSlot));
        got.forEach((slot, i) => {
          if (i > 0) expect(slot).toBe(got[i - 1]! + 1);
        });
        slotNotifications += got.length;
      }
    }
    expect(received()).toBe(owed);
    // Signature subscriptions end with their notification, as agave's do.
    expect(served.rpc.pubsub.subscriptionCount).toBe(1_000 - SIGNATURES);

    console.log(
      [
        `localnet pubsub load: ${subs.length} subscriptions on ${CONNECTIONS} connections ` +
          `(${SIGNATURES} signature, ${ACCOUNTS} account, ${MENTIONS + ALL_LOGS} logs, ${PROGRAMS} program, ${SLOTS} slot), ` +
          'commitments processed/confirmed/finalized in turn',
        `  subscribed in ${subscribedMs.toFixed(0)} ms`,
        `  ${TRANSACTIONS} transfers sent over JSON-RPC in batches of ${BATCH}: landed in ${landedMs.toFixed(0)} ms, ` +
          `slots ${Math.min(...slotOf)}..${lastSlot} (${distinct(slotOf).length} slots)`,
        `  ${owed} transaction/account notifications owed, ${received()} delivered, each once and in slot order, ` +
          `plus ${slotNotifications} slot notifications (every slot once, in order)`,
        `  all delivered ${deliveredMs.toFixed(0)} ms after the first send ` +
          `(${Math.round((owed + slotNotifications) / (deliveredMs / 1000))} notifications/s, finality depth 8 slots of 25 ms)`,
      ].join('\n'),
    );
  });
});
