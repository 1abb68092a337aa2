import { encodeBase58, type ParsedMessage, type TransactionErrorJson } from '@token-actions/core';
import { memoOf } from '../indexes/transactions.js';
import type { LocalnetState } from '../state.js';

/** A landing as the indexes and listeners hear of it. */
export interface LandedEvent {
  readonly id: string;
  readonly slot: bigint;
  readonly message: ParsedMessage;
  /** Every account of the message: static keys, then loaded writable, then loaded readonly. */
  readonly keys: readonly Uint8Array[];
  readonly writable: readonly boolean[];
  readonly err: TransactionErrorJson | undefined;
  readonly logs: readonly string[];
  readonly blockTime: number;
}

/** Indexes a transaction by its addresses and slot (a landing, or a replay at start-up). */
export function indexLanded(state: LocalnetState, landed: LandedEvent, addresses: readonly string[]): void {
  const { history, ledger, settings } = state;
  history.index.add(
    {
      signature: landed.id,
      slot: landed.slot,
      err: landed.err ?? null,
      memo: memoOf(landed.message),
      blockTime: landed.blockTime,
    },
    addresses,
  );
  history.index.trim(settings.historySize, (signature) => ledger.has(signature));
}

/** After a landing is recorded: indexes it and tells the listeners (the PubSub services). */
export function announceLanded(state: LocalnetState, landed: LandedEvent): void {
  const addresses = landed.keys.map(encodeBase58);
  indexLanded(state, landed, addresses);
  if (state.listeners.size === 0) return;
  state.listeners.transaction({
    signature: landed.id,
    slot: landed.slot,
    err: landed.err ?? null,
    logs: landed.logs,
    accountKeys: addresses,
    // A failed transaction changed only its fee payer.
    writableAccounts:
      landed.err === undefined ? addresses.filter((_, i) => landed.writable[i]) : addresses.slice(0, 1),
  });
}
