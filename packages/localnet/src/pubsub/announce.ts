import { type AccountState, EMPTY_ACCOUNT, encodeAccount } from '../parsed/account.js';
import { accountMatchesFilters } from '../parsed/filters.js';
import { toJson } from '../parsed/json.js';
import { isTokenProgram } from '../parsed/program-ids.js';
import type { Commitment, CommitmentSlots, LandedTransaction, PubSubChainReader } from './events.js';
import { NOTIFICATION_METHODS, type SubscriptionSpec } from './params.js';
import { commitmentOf, type Subscription, type SubscriptionRegistry } from './registry.js';

/** The notifications a subscription is owed, each written as agave writes it. */

export function send(sub: Subscription, resultJson: string): void {
  const method = NOTIFICATION_METHODS[sub.spec.kind];
  sub.sink.send(
    `{"jsonrpc":"2.0","method":"${method}","params":{"result":${resultJson},"subscription":${sub.id}}}`,
  );
}

const withContext = (slot: bigint, valueJson: string) => `{"context":{"slot":${slot}},"value":${valueJson}}`;

/** A signature's `receivedSignature`, once per subscription that asked for it. */
export function notifyReceived(registry: SubscriptionRegistry, signature: string, slot: bigint): void {
  for (const sub of registry.bySignature.get(signature) ?? []) {
    if (sub.spec.kind !== 'signature' || !sub.spec.enableReceivedNotification || sub.receivedSent) continue;
    sub.receivedSent = true;
    send(sub, withContext(slot, '"receivedSignature"'));
  }
}

/** A transaction that reached `level`: to its signature's and its accounts' log subscriptions. */
export function notifyTransaction(
  registry: SubscriptionRegistry,
  tx: LandedTransaction,
  slot: bigint,
  level: Commitment,
): void {
  const signatureSubs = registry.bySignature.get(tx.signature);
  if (signatureSubs) {
    const value = withContext(slot, toJson({ err: tx.err }));
    for (const sub of [...signatureSubs]) {
      if (commitmentOf(sub) !== level) continue;
      send(sub, value);
      // agave unsubscribes a signature subscription once it has been notified.
      registry.remove(sub);
    }
  }
  const logSubs = [...registry.allLogs];
  for (const key of new Set(tx.accountKeys)) logSubs.push(...(registry.byMention.get(key) ?? []));
  const value = withContext(slot, toJson({ signature: tx.signature, err: tx.err, logs: tx.logs }));
  for (const sub of logSubs) if (commitmentOf(sub) === level) send(sub, value);
}

function accountJson(
  reader: PubSubChainReader,
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

/** Accounts a transaction wrote, as they are at `level`: to their own and their owner's subscriptions. */
export function notifyAccounts(
  registry: SubscriptionRegistry,
  reader: PubSubChainReader,
  addresses: Iterable<string>,
  slot: bigint,
  level: Commitment,
): void {
  for (const address of addresses) {
    const accountSubs = [...(registry.byAccount.get(address) ?? [])].filter(
      (sub) => commitmentOf(sub) === level,
    );
    const programSubsExist = registry.byProgram.size > 0;
    if (accountSubs.length === 0 && !programSubsExist) continue;
    const state = reader.getAccount(address, level);
    for (const sub of accountSubs) {
      if (sub.spec.kind !== 'account') continue;
      // A deleted account is announced as agave's default account: no lamports, owned by the system program.
      send(sub, withContext(slot, toJson(accountJson(reader, state ?? EMPTY_ACCOUNT, sub.spec, level))));
    }
    if (!state) continue;
    for (const sub of registry.byProgram.get(state.owner) ?? []) {
      const { spec } = sub;
      if (spec.kind !== 'program' || spec.commitment !== level) continue;
      if (!accountMatchesFilters(state.data, spec.filters)) continue;
      const account = accountJson(reader, state, spec, level);
      // agave leaves out the accounts jsonParsed cannot render when the subscription is to a token program.
      if (spec.encoding === 'jsonParsed' && isTokenProgram(spec.programId) && Array.isArray(account.data))
        continue;
      send(sub, withContext(slot, toJson({ pubkey: address, account })));
    }
  }
}

/** Where the slots stood before this one: what a slot update reports as having moved. */
export interface SlotsBefore {
  /** The slot before this one, if any was announced. */
  readonly previous: bigint | undefined;
  /** The transactions that landed in `previous`, now frozen. */
  readonly landedInPrevious: readonly LandedTransaction[];
  readonly lastConfirmed: bigint;
  readonly lastRoot: bigint;
}

/**
 * agave's `slotsUpdatesSubscribe`, in the stages a localnet bank has: the new slot's bank is
 * created, the one before it is frozen (nothing lands in it any more), and the confirmed and
 * finalized levels move.
 */
export function slotUpdates(slot: bigint, before: SlotsBefore, reached: CommitmentSlots): string[] {
  const { previous, landedInPrevious: landed, lastConfirmed, lastRoot } = before;
  const timestamp = Date.now();
  const updates: unknown[] = [
    { type: 'createdBank', parent: previous ?? (slot > 0n ? slot - 1n : 0n), slot, timestamp },
  ];
  if (previous !== undefined && previous < slot) {
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
  return updates.map(toJson);
}
