import { type AccountState, EMPTY_ACCOUNT, encodeAccount } from '../parsed/account.js';
import { accountMatchesFilters } from '../parsed/filters.js';
import { toJson } from '../parsed/json.js';
import { isTokenProgram } from '../parsed/program-ids.js';
import {
  COMMITMENT_LEVELS,
  type Commitment,
  type CommitmentSlots,
  type LandedTransaction,
  type PubSubChainReader,
  type PubSubEvents,
} from './events.js';
import { NOTIFICATION_METHODS, type SubscriptionSpec } from './params.js';

/** One websocket connection, as the hub sees it. */
export interface Sink {
  send(text: string): void;
}

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

interface Subscription {
  readonly id: number;
  readonly sink: Sink;
  readonly spec: SubscriptionSpec;
  receivedSent: boolean;
}

/** What landed in one slot, kept until the slot is finalized. */
interface SlotActivity {
  readonly slot: bigint;
  readonly transactions: LandedTransaction[];
  readonly writable: Set<string>;
}

type Index = Map<string, Set<Subscription>>;

function addTo(index: Index, key: string, sub: Subscription) {
  let set = index.get(key);
  if (!set) {
    set = new Set();
    index.set(key, set);
  }
  set.add(sub);
}

function removeFrom(index: Index, key: string, sub: Subscription) {
  const set = index.get(key);
  if (!set) return;
  set.delete(sub);
  if (set.size === 0) index.delete(key);
}

const commitmentOf = (sub: Subscription): Commitment | undefined =>
  'commitment' in sub.spec ? sub.spec.commitment : undefined;

export function createSubscriptionHub(reader: PubSubChainReader): SubscriptionHub {
  let nextId = 0;
  const subscriptions = new Map<number, Subscription>();
  const bySink = new Map<Sink, Set<number>>();
  const bySignature: Index = new Map();
  const byAccount: Index = new Map();
  const byProgram: Index = new Map();
  const byMention: Index = new Map();
  const allLogs = new Set<Subscription>();
  const slotWatchers = new Set<Subscription>();
  const slotUpdateWatchers = new Set<Subscription>();
  const rootWatchers = new Set<Subscription>();
  const pending = new Map<bigint, SlotActivity>();
  const flushed: Record<Commitment, bigint> = { processed: -1n, confirmed: -1n, finalized: -1n };
  let lastSlot: bigint | undefined;
  let lastRoot = -1n;
  let lastConfirmed = -1n;

  function send(sub: Subscription, resultJson: string) {
    const method = NOTIFICATION_METHODS[sub.spec.kind];
    sub.sink.send(
      `{"jsonrpc":"2.0","method":"${method}","params":{"result":${resultJson},"subscription":${sub.id}}}`,
    );
  }

  const withContext = (slot: bigint, valueJson: string) =>
    `{"context":{"slot":${slot}},"value":${valueJson}}`;

  function remove(sub: Subscription) {
    subscriptions.delete(sub.id);
    bySink.get(sub.sink)?.delete(sub.id);
    const { spec } = sub;
    if (spec.kind === 'signature') removeFrom(bySignature, spec.signature, sub);
    else if (spec.kind === 'account') removeFrom(byAccount, spec.pubkey, sub);
    else if (spec.kind === 'program') removeFrom(byProgram, spec.programId, sub);
    else if (spec.kind === 'logs') {
      if (spec.mentions) removeFrom(byMention, spec.mentions, sub);
      else allLogs.delete(sub);
    } else if (spec.kind === 'slot') slotWatchers.delete(sub);
    else if (spec.kind === 'slotsUpdates') slotUpdateWatchers.delete(sub);
    else rootWatchers.delete(sub);
  }

  /**
   * agave's `slotsUpdatesSubscribe`, in the stages a localnet bank has: the new slot's bank is
   * created, the one before it is frozen (nothing lands in it any more), and the confirmed and
   * finalized levels move.
   */
  function announceSlotUpdates(slot: bigint, previous: bigint | undefined, reached: CommitmentSlots) {
    const timestamp = Date.now();
    const updates: unknown[] = [
      { type: 'createdBank', parent: previous ?? (slot > 0n ? slot - 1n : 0n), slot, timestamp },
    ];
    if (previous !== undefined && previous < slot) {
      const landed = pending.get(previous)?.transactions ?? [];
      const failed = landed.filter((tx) => tx.err !== null).length;
      updates.push({
        type: 'frozen',
        slot: previous,
        timestamp,
        stats: {
          numTransactionEntries: landed.length,
          numSuccessfulTransactions: landed.length - failed,
          numFailedTransactions: failed,
          maxTransactionsPerEntry: landed.length > 0 ? 1 : 0,
        },
      });
    }
    if (reached.confirmed > lastConfirmed)
      updates.push({ type: 'optimisticConfirmation', slot: reached.confirmed, timestamp });
    if (reached.finalized > lastRoot) updates.push({ type: 'root', slot: reached.finalized, timestamp });
    const texts = updates.map(toJson);
    for (const sub of slotUpdateWatchers) for (const text of texts) send(sub, text);
  }

  function announceTransaction(tx: LandedTransaction, slot: bigint, level: Commitment) {
    const signatureSubs = bySignature.get(tx.signature);
    if (signatureSubs) {
      const value = withContext(slot, toJson({ err: tx.err }));
      for (const sub of [...signatureSubs]) {
        if (commitmentOf(sub) !== level) continue;
        send(sub, value);
        // agave unsubscribes a signature subscription once it has been notified.
        remove(sub);
      }
    }
    const logSubs = [...allLogs];
    for (const key of new Set(tx.accountKeys)) logSubs.push(...(byMention.get(key) ?? []));
    const value = withContext(slot, toJson({ signature: tx.signature, err: tx.err, logs: tx.logs }));
    for (const sub of logSubs) if (commitmentOf(sub) === level) send(sub, value);
  }

  function accountJson(
    state: AccountState,
    spec: SubscriptionSpec & { kind: 'account' | 'program' },
    level: Commitment,
  ) {
    const readAccount = (address: string) => reader.getAccount(address, level);
    return encodeAccount(state, spec.encoding, {
      readAccount,
      ...(spec.dataSlice ? { dataSlice: spec.dataSlice } : {}),
    });
  }

  function announceAccounts(addresses: Iterable<string>, slot: bigint, level: Commitment) {
    for (const address of addresses) {
      const accountSubs = [...(byAccount.get(address) ?? [])].filter((sub) => commitmentOf(sub) === level);
      const programSubsExist = byProgram.size > 0;
      if (accountSubs.length === 0 && !programSubsExist) continue;
      const state = reader.getAccount(address, level);
      for (const sub of accountSubs) {
        if (sub.spec.kind !== 'account') continue;
        // A deleted account is announced as agave's default account: no lamports, owned by the system program.
        send(sub, withContext(slot, toJson(accountJson(state ?? EMPTY_ACCOUNT, sub.spec, level))));
      }
      if (!state) continue;
      for (const sub of byProgram.get(state.owner) ?? []) {
        const { spec } = sub;
        if (spec.kind !== 'program' || spec.commitment !== level) continue;
        if (!accountMatchesFilters(state.data, spec.filters)) continue;
        const account = accountJson(state, spec, level);
        // agave leaves out the accounts jsonParsed cannot render when the subscription is to a token program.
        if (spec.encoding === 'jsonParsed' && isTokenProgram(spec.programId) && Array.isArray(account.data))
          continue;
        send(sub, withContext(slot, toJson({ pubkey: address, account })));
      }
    }
  }

  function announce(activity: SlotActivity, level: Commitment) {
    for (const tx of activity.transactions) announceTransaction(tx, activity.slot, level);
    announceAccounts(activity.writable, activity.slot, level);
  }

  function sendReceived(signature: string, slot: bigint) {
    for (const sub of bySignature.get(signature) ?? []) {
      if (sub.spec.kind !== 'signature' || !sub.spec.enableReceivedNotification || sub.receivedSent) continue;
      sub.receivedSent = true;
      send(sub, withContext(slot, '"receivedSignature"'));
    }
  }

  return {
    get subscriptionCount() {
      return subscriptions.size;
    },

    subscribe(sink, spec) {
      const sub: Subscription = { id: nextId++, sink, spec, receivedSent: false };
      subscriptions.set(sub.id, sub);
      let ids = bySink.get(sink);
      if (!ids) {
        ids = new Set();
        bySink.set(sink, ids);
      }
      ids.add(sub.id);
      if (spec.kind === 'signature') addTo(bySignature, spec.signature, sub);
      else if (spec.kind === 'account') addTo(byAccount, spec.pubkey, sub);
      else if (spec.kind === 'program') addTo(byProgram, spec.programId, sub);
      else if (spec.kind === 'logs') {
        if (spec.mentions) addTo(byMention, spec.mentions, sub);
        else allLogs.add(sub);
      } else if (spec.kind === 'slot') slotWatchers.add(sub);
      else if (spec.kind === 'slotsUpdates') slotUpdateWatchers.add(sub);
      else rootWatchers.add(sub);
      return sub.id;
    },

    unsubscribe(sink, id) {
      const sub = subscriptions.get(id);
      if (!sub || sub.sink !== sink) return false;
      remove(sub);
      return true;
    },

    dropSink(sink) {
      for (const id of [...(bySink.get(sink) ?? [])]) {
        const sub = subscriptions.get(id);
        if (sub) remove(sub);
      }
      bySink.delete(sink);
    },

    onReceived: sendReceived,

    onTransaction(tx) {
      sendReceived(tx.signature, tx.slot);
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
        announceTransaction(tx, tx.slot, level);
        announceAccounts(tx.writableAccounts, tx.slot, level);
      }
    },

    onSlot(slot, reached: CommitmentSlots) {
      const info = toJson({
        parent: lastSlot ?? (slot > 0n ? slot - 1n : 0n),
        root: reached.finalized,
        slot,
      });
      if (slotUpdateWatchers.size > 0) announceSlotUpdates(slot, lastSlot, reached);
      if (reached.confirmed > lastConfirmed) lastConfirmed = reached.confirmed;
      lastSlot = slot;
      for (const sub of slotWatchers) send(sub, info);
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
        for (const sub of rootWatchers) send(sub, reached.finalized.toString());
      }
      for (const at of slots) if (at <= flushed.finalized) pending.delete(at);
    },
  };
}
