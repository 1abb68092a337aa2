import { encodeBase58, feeOf, parseMessage } from '@token-actions/core';
import type { LocalnetState } from '../state.js';
import type { EpochInfo } from '../types.js';

/** The epoch of the current slot; warm-up epochs double from 32 slots, as on a real cluster. */
export function epochInfo(state: LocalnetState): EpochInfo {
  const slot = state.clock.slot;
  const schedule = state.svm.epochSchedule();
  const perEpoch = schedule.slotsPerEpoch;
  let epoch: bigint;
  let slotIndex: bigint;
  let slotsInEpoch: bigint;
  if (slot >= schedule.firstNormalSlot) {
    epoch = schedule.firstNormalEpoch + (slot - schedule.firstNormalSlot) / perEpoch;
    slotIndex = (slot - schedule.firstNormalSlot) % perEpoch;
    slotsInEpoch = perEpoch;
  } else {
    epoch = 0n;
    slotsInEpoch = 32n;
    let start = 0n;
    while (start + slotsInEpoch <= slot) {
      start += slotsInEpoch;
      slotsInEpoch *= 2n;
      epoch++;
    }
    slotIndex = slot - start;
  }
  return {
    epoch,
    slotIndex,
    slotsInEpoch,
    absoluteSlot: slot,
    blockHeight: slot,
    transactionCount: state.history.transactionCount,
  };
}

/** Lamports a message would pay (5,000 a signature plus its priority fee); null for a message
 * that does not parse or whose blockhash is not valid. */
export function feeFor(state: LocalnetState, message: Uint8Array): bigint | null {
  try {
    const parsed = parseMessage(message);
    return state.clock.validIssue(encodeBase58(parsed.recentBlockhash)) === undefined ? null : feeOf(parsed);
  } catch {
    return null;
  }
}
