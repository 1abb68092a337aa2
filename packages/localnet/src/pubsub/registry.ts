import type { Commitment } from './events.js';
import type { SubscriptionSpec } from './params.js';

/** One websocket connection, as the hub sees it. */
export interface Sink {
  send(text: string): void;
}

export interface Subscription {
  readonly id: number;
  readonly sink: Sink;
  readonly spec: SubscriptionSpec;
  /** Whether its `receivedSignature` notification went out (it goes out once). */
  receivedSent: boolean;
}

/** Subscriptions by the key a notification looks them up by (a signature, an address, a program). */
export type Index = Map<string, Set<Subscription>>;

export const commitmentOf = (sub: Subscription): Commitment | undefined =>
  'commitment' in sub.spec ? sub.spec.commitment : undefined;

/**
 * Every connection's subscriptions, indexed the way notifications find them. Ids are unique across
 * connections, from 0 up, as agave numbers them.
 */
export class SubscriptionRegistry {
  private nextId = 0;
  private readonly subscriptions = new Map<number, Subscription>();
  private readonly bySink = new Map<Sink, Set<number>>();
  readonly bySignature: Index = new Map();
  readonly byAccount: Index = new Map();
  readonly byProgram: Index = new Map();
  /** Log subscriptions that name an account. */
  readonly byMention: Index = new Map();
  /** Log subscriptions to every transaction. */
  readonly allLogs = new Set<Subscription>();
  readonly slotWatchers = new Set<Subscription>();
  readonly slotUpdateWatchers = new Set<Subscription>();
  readonly rootWatchers = new Set<Subscription>();

  get size(): number {
    return this.subscriptions.size;
  }

  add(sink: Sink, spec: SubscriptionSpec): Subscription {
    const sub: Subscription = { id: this.nextId++, sink, spec, receivedSent: false };
    this.subscriptions.set(sub.id, sub);
    let ids = this.bySink.get(sink);
    if (!ids) {
      ids = new Set();
      this.bySink.set(sink, ids);
    }
    ids.add(sub.id);
    const place = this.placeOf(spec);
    if (place instanceof Set) place.add(sub);
    else {
      let set = place.index.get(place.key);
      if (!set) {
        set = new Set();
        place.index.set(place.key, set);
      }
      set.add(sub);
    }
    return sub;
  }

  remove(sub: Subscription): void {
    this.subscriptions.delete(sub.id);
    this.bySink.get(sub.sink)?.delete(sub.id);
    const place = this.placeOf(sub.spec);
    if (place instanceof Set) {
      place.delete(sub);
      return;
    }
    const set = place.index.get(place.key);
    if (!set) return;
    set.delete(sub);
    if (set.size === 0) place.index.delete(place.key);
  }

  /** This connection's subscription with this id, if it has one. */
  find(sink: Sink, id: number): Subscription | undefined {
    const sub = this.subscriptions.get(id);
    return sub?.sink === sink ? sub : undefined;
  }

  /** Forgets a closed connection's subscriptions. */
  dropSink(sink: Sink): void {
    for (const id of [...(this.bySink.get(sink) ?? [])]) {
      const sub = this.subscriptions.get(id);
      if (sub) this.remove(sub);
    }
    this.bySink.delete(sink);
  }

  /** Where a subscription of this spec is kept: a set of its own kind, or an index under a key. */
  private placeOf(spec: SubscriptionSpec): Set<Subscription> | { index: Index; key: string } {
    switch (spec.kind) {
      case 'signature':
        return { index: this.bySignature, key: spec.signature };
      case 'account':
        return { index: this.byAccount, key: spec.pubkey };
      case 'program':
        return { index: this.byProgram, key: spec.programId };
      case 'logs':
        return spec.mentions ? { index: this.byMention, key: spec.mentions } : this.allLogs;
      case 'slot':
        return this.slotWatchers;
      case 'slotsUpdates':
        return this.slotUpdateWatchers;
      case 'root':
        return this.rootWatchers;
    }
  }
}
