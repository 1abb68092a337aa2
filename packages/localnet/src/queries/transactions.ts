import { type ChainStatus, encodeBase58, fromBase64, parseTransaction } from '@token-actions/core';
import { innerInstructionsFromJson, tokenBalancesFromJson } from '../executor/extras.js';
import type { Landed } from '../executor/ledger.js';
import type { Detail, LocalnetState } from '../state.js';
import type { LandedStatus, LandedTransaction } from '../types.js';

function landedStatus(state: LocalnetState, entry: Landed): LandedStatus {
  const slot = state.clock.slot;
  const commitment = state.ledger.commitmentOf(entry, slot);
  return {
    slot: entry.slot,
    commitment,
    confirmations: commitment === 'finalized' ? null : Number(slot - entry.slot),
    err: entry.err ?? null,
    ...(entry.error === undefined ? {} : { error: entry.error }),
  };
}

/**
 * A landed transaction as it may be reported: once its journal record is on disk. Before that a
 * crash would take it back, and a status reported for it (a tracker recording it `confirmed`)
 * would outlive the transaction itself.
 */
function reported(state: LocalnetState, signature: string): Landed | undefined {
  const entry = state.ledger.get(signature);
  return entry && state.disk.isDurable(entry.durableAt) ? entry : undefined;
}

/** A transaction's status in the JSON-RPC's terms; null for one the localnet has not seen land. */
export function landed(state: LocalnetState, signature: string): LandedStatus | null {
  const entry = reported(state, signature);
  return entry ? landedStatus(state, entry) : null;
}

/** Statuses in the port's terms, in order. */
export function statuses(state: LocalnetState, ids: readonly string[]): (ChainStatus | null)[] {
  return ids.map((id) => {
    const entry = reported(state, id);
    return entry ? state.ledger.statusOf(entry, state.clock.slot) : null;
  });
}

/** The details of a transaction too old to be kept in memory, read back from the journal. */
function detailOnDisk(state: LocalnetState, entry: Landed): Detail | undefined {
  const stored = entry.location ? state.disk.read(entry.location) : undefined;
  const wire = stored?.t === 'tx' ? fromBase64(stored.w) : undefined;
  if (stored?.t !== 'tx' || !wire) return undefined;
  return {
    wire,
    blockTime: stored.bt,
    fee: BigInt(stored.f),
    unitsConsumed: BigInt(stored.cu),
    logs: stored.l ?? [],
    preBalances: (stored.pre ?? []).map((v) => BigInt(v)),
    postBalances: (stored.post ?? []).map((v) => BigInt(v)),
    innerInstructions: innerInstructionsFromJson(stored.ii),
    preTokenBalances: tokenBalancesFromJson(stored.tb?.[0]),
    postTokenBalances: tokenBalancesFromJson(stored.tb?.[1]),
  };
}

/** A landed transaction in full, as getTransaction reports it. */
export function transaction(state: LocalnetState, signature: string): LandedTransaction | null {
  const entry = reported(state, signature);
  if (!entry) return null;
  const detail = state.history.details.get(signature) ?? detailOnDisk(state, entry);
  if (!detail) return null;
  const parsed = parseTransaction(detail.wire);
  const loaded = state.svm.loadedAddresses(parsed.message);
  return {
    ...landedStatus(state, entry),
    signature,
    wire: detail.wire,
    message: parsed.message,
    blockTime: detail.blockTime,
    fee: detail.fee,
    unitsConsumed: detail.unitsConsumed,
    logs: detail.logs,
    preBalances: detail.preBalances,
    postBalances: detail.postBalances,
    innerInstructions: detail.innerInstructions ?? [],
    preTokenBalances: detail.preTokenBalances ?? [],
    postTokenBalances: detail.postTokenBalances ?? [],
    loadedAddresses: {
      writable: loaded.writable.map(encodeBase58),
      readonly: loaded.readonly.map(encodeBase58),
    },
  };
}
