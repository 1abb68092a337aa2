import { toBase64 } from '@token-actions/core';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  createFakeChain,
  type FakeChain,
  randomAddress,
  randomSignature,
} from '../../test/support/fake-chain.js';
import type { AccountState } from '../parsed/account.js';
import { createSubscriptionHub, type Sink, type SubscriptionHub } from './hub.js';
import { parseSubscription, type SubscriptionSpec } from './params.js';

interface Notification {
  readonly method: string;
  readonly subscription: number;
  readonly result: { context?: { slot: number }; value?: unknown } & Record<string, unknown>;
}

function recordingSink(): Sink & { readonly messages: Notification[] } {
  const messages: Notification[] = [];
  return {
    messages,
    send(text) {
      const message = JSON.parse(text);
      messages.push({
        method: message.method,
        subscription: message.params.subscription,
        result: message.params.result,
      });
    },
  };
}

const owner = randomAddress();
const account = (lamports: bigint, data = Uint8Array.from([1, 2, 3])): AccountState => ({
  lamports,
  owner,
  data,
  executable: false,
});

let hub: SubscriptionHub;
let chain: FakeChain;
let sink: ReturnType<typeof recordingSink>;

function subscribe(kind: SubscriptionSpec['kind'], params: unknown[] = [], to: Sink = sink): number {
  return hub.subscribe(to, parseSubscription(kind, params)._unsafeUnwrap());
}

beforeEach(() => {
  hub = createSubscriptionHub({ getAccount: (address, commitment) => chain.getAccount(address, commitment) });
  chain = createFakeChain(() => hub);
  sink = recordingSink();
});

describe('signatureSubscribe', () => {
  it('fires once per commitment level, when the slot reaches it, then forgets the subscription', () => {
    const signature = randomSignature();
    const ids = {
      processed: subscribe('signature', [signature, { commitment: 'processed' }]),
      confirmed: subscribe('signature', [signature, { commitment: 'confirmed' }]),
      finalized: subscribe('signature', [signature]),
    };
    expect(Object.values(ids)).toEqual([0, 1, 2]);
    const landedAt = Number(chain.slot);
    chain.land(new Map(), { signature });
    expect(sink.messages).toEqual([]);
    chain.tick(); // landing slot frozen
    expect(sink.messages).toEqual([
      {
        method: 'signatureNotification',
        subscription: ids.processed,
        result: { context: { slot: landedAt }, value: { err: null } },
      },
    ]);
    chain.tick(); // confirmed
    expect(sink.messages.map((m) => m.subscription)).toEqual([ids.processed, ids.confirmed]);
    for (let i = 0; i < 30; i++) chain.tick();
    expect(sink.messages).toHaveLength(2);
    chain.tick(); // 32 slots after the frozen one: finalized
    expect(sink.messages[2]).toEqual({
      method: 'signatureNotification',
      subscription: ids.finalized,
      result: { context: { slot: landedAt }, value: { err: null } },
    });
    expect(hub.subscriptionCount).toBe(0);
    for (let i = 0; i < 40; i++) chain.tick();
    expect(sink.messages).toHaveLength(3);
  });

  it('reports the transaction error, and "receivedSignature" first when asked for', () => {
    const signature = randomSignature();
    const id = subscribe('signature', [
      signature,
      { commitment: 'processed', enableReceivedNotification: true },
    ]);
    const slot = Number(chain.slot);
    hub.onReceived(signature, chain.slot);
    chain.land(new Map(), { signature, err: { InstructionError: [0, { Custom: 1 }] } });
    chain.tick();
    expect(sink.messages).toEqual([
      {
        method: 'signatureNotification',
        subscription: id,
        result: { context: { slot }, value: 'receivedSignature' },
      },
      {
        method: 'signatureNotification',
        subscription: id,
        result: { context: { slot }, value: { err: { InstructionError: [0, { Custom: 1 }] } } },
      },
    ]);
  });

  it('hears a transaction that landed before the subscription while its slot is below the level', () => {
    const signature = randomSignature();
    chain.land(new Map(), { signature });
    chain.tick(); // processed
    const confirmed = subscribe('signature', [signature, { commitment: 'confirmed' }]);
    const processed = subscribe('signature', [signature, { commitment: 'processed' }]);
    chain.tick();
    expect(sink.messages.map((m) => m.subscription)).toEqual([confirmed]);
    // As in agave, a level the slot already passed is not announced again.
    expect(hub.subscriptionCount).toBe(1);
    expect(hub.unsubscribe(sink, processed)).toBe(true);
  });
});

describe('accountSubscribe', () => {
  it('notifies once per slot that changed the account, with its state at that level, in each encoding', () => {
    const address = randomAddress();
    const base64 = subscribe('account', [address, { encoding: 'base64', commitment: 'confirmed' }]);
    const binary = subscribe('account', [address, { commitment: 'processed' }]);
    const first = Number(chain.slot);
    chain.land(new Map([[address, account(10n)]]));
    chain.land(new Map([[address, account(20n)]])); // same slot: one notification
    chain.tick();
    chain.land(new Map([[address, account(30n, Uint8Array.from([9]))]]));
    chain.tick();
    chain.tick();
    const value = (lamports: number, data: unknown, space: number) => ({
      lamports,
      data,
      owner,
      executable: false,
      rentEpoch: 18446744073709552000,
      space,
    });
    expect(sink.messages.filter((m) => m.subscription === binary)).toEqual([
      {
        method: 'accountNotification',
        subscription: binary,
        result: { context: { slot: first }, value: value(20, 'Ldp', 3) },
      },
      {
        method: 'accountNotification',
        subscription: binary,
        result: { context: { slot: first + 1 }, value: value(30, 'A', 1) },
      },
    ]);
    expect(sink.messages.filter((m) => m.subscription === base64).map((m) => m.result)).toEqual([
      { context: { slot: first }, value: value(30, [toBase64(Uint8Array.from([9])), 'base64'], 1) },
      { context: { slot: first + 1 }, value: value(30, [toBase64(Uint8Array.from([9])), 'base64'], 1) },
    ]);
    // Read at the subscription's level, as each level reaches a slot: tick 2 freezes slot 2 and confirms slot 1.
    expect(chain.reads.filter((read) => read.address === address).map((read) => read.commitment)).toEqual([
      'processed',
      'processed',
      'confirmed',
      'confirmed',
    ]);
  });

  it('announces a closed account as the default account', () => {
    const address = randomAddress();
    chain.accounts.set(address, account(5n));
    const id = subscribe('account', [address, { encoding: 'base64', commitment: 'processed' }]);
    chain.land(new Map([[address, undefined]]));
    chain.tick();
    expect(sink.messages[0]).toMatchObject({
      subscription: id,
      result: {
        value: {
          lamports: 0,
          data: ['', 'base64'],
          owner: '11111111111111111111111111111111',
          executable: false,
          rentEpoch: 0,
          space: 0,
        },
      },
    });
  });
});

describe('programSubscribe, logsSubscribe, slotSubscribe, rootSubscribe', () => {
  it('sends changed accounts of the program that pass the filters', () => {
    const matching = randomAddress();
    const other = randomAddress();
    const id = subscribe('program', [
      owner,
      { encoding: 'base64', commitment: 'processed', filters: [{ dataSize: 3 }] },
    ]);
    const slot = Number(chain.slot);
    chain.land(
      new Map([
        [matching, account(1n)],
        [other, account(1n, Uint8Array.from([1]))],
      ]),
    );
    chain.land(new Map([[randomAddress(), { ...account(1n), owner: randomAddress() }]]));
    chain.tick();
    expect(sink.messages).toEqual([
      {
        method: 'programNotification',
        subscription: id,
        result: {
          context: { slot },
          value: {
            pubkey: matching,
            account: {
              lamports: 1,
              data: ['AQID', 'base64'],
              owner,
              executable: false,
              rentEpoch: 18446744073709552000,
              space: 3,
            },
          },
        },
      },
    ]);
  });

  it('sends the logs of every transaction, or of those that mention an address', () => {
    const mentioned = randomAddress();
    const all = subscribe('logs', ['all', { commitment: 'processed' }]);
    const mentions = subscribe('logs', [{ mentions: [mentioned] }, { commitment: 'processed' }]);
    const a = chain.land(new Map(), { accountKeys: [randomAddress()], logs: ['a'] });
    const b = chain.land(new Map(), { accountKeys: [mentioned], logs: ['b'] });
    chain.tick();
    expect(
      sink.messages.map((m) => [m.subscription, (m.result.value as { signature: string }).signature]),
    ).toEqual([
      [all, a.signature],
      [all, b.signature],
      [mentions, b.signature],
    ]);
    expect(sink.messages[2]?.result.value).toEqual({ signature: b.signature, err: null, logs: ['b'] });
  });

  it('sends every slot with its parent and root, and every new root', () => {
    const slots = subscribe('slot');
    const roots = subscribe('root');
    const first = chain.tick();
    chain.tick();
    expect(sink.messages.filter((m) => m.subscription === slots).map((m) => m.result)).toEqual([
      { parent: Number(chain.slot) - 2, root: Number(first.finalized), slot: Number(chain.slot) - 1 },
      { parent: Number(chain.slot) - 1, root: Number(first.finalized) + 1, slot: Number(chain.slot) },
    ]);
    expect(sink.messages.filter((m) => m.subscription === roots).map((m) => m.result)).toEqual([
      Number(first.finalized),
      Number(first.finalized) + 1,
    ]);
  });
});

describe('subscriptions per connection', () => {
  it('lets a connection remove only its own subscriptions, and forgets them all when it closes', () => {
    const other = recordingSink();
    const mine = subscribe('slot');
    const theirs = subscribe('slot', [], other);
    expect(hub.unsubscribe(sink, theirs)).toBe(false);
    expect(hub.unsubscribe(sink, mine)).toBe(true);
    expect(hub.unsubscribe(sink, mine)).toBe(false);
    subscribe('account', [randomAddress()], other);
    expect(hub.subscriptionCount).toBe(2);
    hub.dropSink(other);
    expect(hub.subscriptionCount).toBe(0);
  });
});

describe('slotsUpdatesSubscribe', () => {
  it('reports each bank created and frozen (with its transactions), then confirmation and root as they move', () => {
    const id = subscribe('slotsUpdates');
    chain.tick();
    const start = Number(chain.slot);
    chain.land(new Map([[randomAddress(), account(5n)]]));
    chain.land(new Map(), { err: { InstructionError: [0, { Custom: 1 }] } });
    sink.messages.length = 0;
    chain.tick();
    expect(sink.messages.every((m) => m.method === 'slotsUpdatesNotification' && m.subscription === id)).toBe(
      true,
    );
    const updates = sink.messages.map((m) => m.result);
    expect(updates.map((u) => u.type)).toEqual(['createdBank', 'frozen', 'optimisticConfirmation', 'root']);
    expect(updates[0]).toMatchObject({ slot: start + 1, parent: start });
    expect(updates[1]).toMatchObject({
      slot: start,
      stats: {
        numTransactionEntries: 2,
        numSuccessfulTransactions: 1,
        numFailedTransactions: 1,
        maxTransactionsPerEntry: 1,
      },
    });
    expect(typeof updates[0]!.timestamp).toBe('number');
    expect(hub.unsubscribe(sink, id)).toBe(true);
  });
});
