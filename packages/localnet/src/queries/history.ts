import type { ChainCommitment } from '@token-actions/core';
import type { LocalnetState } from '../state.js';
import type { BlockUnavailable, LocalBlock, SignatureInfo } from '../types.js';

const DEFAULT_HASH = '11111111111111111111111111111111';

/** The newest slot that has reached `commitment` (the current one for `processed`). */
export function committedSlot(state: LocalnetState, commitment: ChainCommitment): bigint {
  const { slot } = state.clock;
  if (commitment === 'processed') return slot;
  const depth = commitment === 'confirmed' ? state.settings.confirmationDepth : state.settings.finalityDepth;
  return slot - depth;
}

function commitmentAt(state: LocalnetState, slot: bigint): ChainCommitment {
  const depth = state.clock.slot - slot;
  if (depth >= state.settings.finalityDepth) return 'finalized';
  return depth >= state.settings.confirmationDepth ? 'confirmed' : 'processed';
}

export interface SignaturesQuery {
  readonly before?: string;
  readonly until?: string;
  readonly limit: number;
  readonly commitment: ChainCommitment;
}

/** getSignaturesForAddress: newest first, only what reached the commitment asked for. */
export function signaturesForAddress(
  state: LocalnetState,
  address: string,
  query: SignaturesQuery,
): SignatureInfo[] {
  const found = state.history.index.forAddress(address, {
    ...(query.before === undefined ? {} : { before: query.before }),
    ...(query.until === undefined ? {} : { until: query.until }),
    limit: query.limit,
    maxSlot: committedSlot(state, query.commitment),
  });
  return found.map((entry) => ({
    signature: entry.signature,
    slot: entry.slot,
    err: entry.err,
    memo: entry.memo,
    blockTime: entry.blockTime,
    confirmationStatus: commitmentAt(state, entry.slot),
  }));
}

/** Why `slot` has no block at `commitment`, or undefined when it has one. */
export function blockUnavailable(
  state: LocalnetState,
  slot: bigint,
  commitment: ChainCommitment,
): BlockUnavailable | undefined {
  const { firstSlot } = state.clock;
  if (slot < firstSlot) return { reason: 'before-first', slot, firstSlot };
  if (slot > committedSlot(state, commitment)) return { reason: 'not-yet', slot };
  return undefined;
}

/** The hash a client saw for the block at `slot` (an issued one, kept across restarts), else derived. */
function blockhashOf(state: LocalnetState, slot: bigint): string {
  for (const [hash, issuedAt] of state.clock.issued) if (issuedAt === slot) return hash;
  return state.clock.blockhashAt(slot);
}

/** When the block at `slot` was made: its transactions' time, else the slot clock's. */
export function blockTimeOf(state: LocalnetState, slot: bigint): number {
  return state.history.index.inSlot(slot)[0]?.blockTime ?? state.timeline.timeOf(slot);
}

export function block(
  state: LocalnetState,
  slot: bigint,
  commitment: ChainCommitment,
): LocalBlock | BlockUnavailable {
  const unavailable = blockUnavailable(state, slot, commitment);
  if (unavailable) return unavailable;
  const first = slot === state.clock.firstSlot;
  const parentSlot = first ? slot : slot - 1n;
  return {
    slot,
    blockhash: blockhashOf(state, slot),
    // The first block has no parent: agave shows the default hash.
    previousBlockhash: first ? DEFAULT_HASH : blockhashOf(state, parentSlot),
    parentSlot,
    blockHeight: slot,
    blockTime: blockTimeOf(state, slot),
    signatures: state.history.index.inSlot(slot).map((entry) => entry.signature),
  };
}

/** Slots from `start` to `end` (inclusive) that hold a block: all of them, the localnet skips none. */
export function blocksBetween(
  state: LocalnetState,
  start: bigint,
  end: bigint,
  commitment: ChainCommitment,
): bigint[] {
  const first = start < state.clock.firstSlot ? state.clock.firstSlot : start;
  const committed = committedSlot(state, commitment);
  const last = end < committed ? end : committed;
  const out: bigint[] = [];
  for (let slot = first; slot <= last; slot++) out.push(slot);
  return out;
}
