import { toJson } from '../parsed/json.js';
import { notifyAccounts, notifyReceived, notifyTransaction, send, slotUpdates } from './announce.js';
import {
  COMMITMENT_LEVELS,
  type Commitment,
  type CommitmentSlots,
  type LandedTransaction,
  type PubSubChainReader,
  type PubSubEvents,
} from './events.js';
import type { SubscriptionSpec } from './params.js';
import { type Sink, SubscriptionRegistry } from './registry.js';

export type { Sink } from './registry.js';

/** Subscriptions of every connection and the notifications they are owed (agave's `RpcSubscriptions`). */
export interface SubscriptionHub extends PubSubEvents {
  /** Registers a subscription; its id is unique across connections, from 0 up, as agave numbers them. */
  subscribe(sink: Sink, spec: SubscriptionSpec): number;
  /** Removes one of this connection's subscriptions; false if it has no such id. */
  unsubscribe(sink: Sink, id: number): boolean;
  /** Forgets a closed connection's subscriptions. */
  dropSink(sink: Sink): void;
  readonly subscriptionCount: number;
}

/** What landed in one slot, kept until the slot is finalized. */
interface SlotActivity {
  readonly slot: bigint;
  readonly transactions: LandedTransaction[];
  readonly writable: Set<string>;
}

export function createSubscriptionHub(reader: PubSubChainReader): SubscriptionHub {
  const registry = new SubscriptionRegistry();
  /** Slots with activity not yet announced at every level. */
  const pending = new Map<bigint, SlotActivity>();
  /** The highest slot announced at each level. */
  const flushed: Record<Commitment, bigint> = { processed: -1n, confirmed: -1n, finalized: -1n };
  let lastSlot: bigint | undefined;
  let lastRoot = -1n;
  let lastConfirmed = -1n;

  function announce(activity: SlotActivity, level: Commitment) {
    for (const tx of activity.transactions) notifyTransaction(registry, tx, activity.slot, level);
    notifyAccounts(registry, reader, activity.writable, activity.slot, level);
  }

  function announceSlotUpdates(slot: bigint, reached: CommitmentSlots) {
    const previous = lastSlot;
    const landedInPrevious = previous === undefined ? [] : (pending.get(previous)?.transactions ?? []);
    const texts = slotUpdates(slot, { previous, landedInPrevious, lastConfirmed, lastRoot }, reached);
    for (const sub of registry.slotUpdateWatchers) for (const text of texts) send(sub, text);
  }

  return {
    get subscriptionCount() {
      return registry.size;
    },

    subscribe(sink, spec) {
      return registry.add(sink, spec).id;
    },

    unsubscribe(sink, id) {
      const sub = registry.find(sink, id);
      if (!sub) return false;
      registry.remove(sub);
      return true;
    },

    dropSink(sink) {
      registry.dropSink(sink);
    },

    onReceived(signature, slot) {
      notifyReceived(registry, signature, slot);
    },

    onTransaction(tx) {
      notifyReceived(registry, tx.signature, tx.slot);
      let activity = pending.get(tx.slot);
      if (!activity) {
        activity = { slot: tx.slot, transactions: [], writable: new Set() };
        pending.set(tx.slot, activity);
      }
      activity.transactions.push(tx);
      for (const address of tx.writableAccounts) activity.writable.add(address);
      // A slot already past a level (a source that reports late) is announced at once for that level.
      for (const level of COMMITMENT_LEVELS) {
        if (flushed[level] < tx.slot) continue;
        notifyTransaction(registry, tx, tx.slot, level);
        notifyAccounts(registry, reader, tx.writableAccounts, tx.slot, level);
      }
    },

    onSlot(slot, reached: CommitmentSlots) {
      const info = toJson({
        parent: lastSlot ?? (slot > 0n ? slot - 1n : 0n),
        root: reached.finalized,
        slot,
      });
      if (registry.slotUpdateWatchers.size > 0) announceSlotUpdates(slot, reached);
      if (reached.confirmed > lastConfirmed) lastConfirmed = reached.confirmed;
      lastSlot = slot;
      for (const sub of registry.slotWatchers) send(sub, info);
      const slots = [...pending.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      for (const level of COMMITMENT_LEVELS) {
        const target = reached[level];
        for (const at of slots) {
          if (at <= flushed[level] || at > target) continue;
          const activity = pending.get(at);
          if (activity) announce(activity, level);
        }
        if (target > flushed[level]) flushed[level] = target;
      }
      if (reached.finalized > lastRoot) {
        lastRoot = reached.finalized;
        for (const sub of registry.rootWatchers) send(sub, reached.finalized.toString());
      }
      for (const at of slots) if (at <= flushed.finalized) pending.delete(at);
    },
  };
}
