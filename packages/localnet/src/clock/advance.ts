import type { LocalnetState } from '../state.js';
import type { IssuedBlockhash } from '../types.js';

/** Moves the localnet to `height`: reserved on disk first, so a restart never shows a slot twice. */
export function moveTo(state: LocalnetState, height: bigint): void {
  state.disk.reserveThrough(height);
  state.clock.moveTo(height);
  state.svm.warpTo(height);
  state.ledger.advanceTo(height);
}

/** Advances `slots` slots; false when the slot could not be reserved on disk (the timer stops). */
export function tick(state: LocalnetState, slots = 1): boolean {
  if (!Number.isSafeInteger(slots) || slots < 1) return true;
  if (state.disk.frozen()) return true;
  try {
    moveTo(state, state.clock.slot + BigInt(slots));
    return true;
  } catch {
    // Stand still rather than show an unrecorded slot.
    return false;
  }
}

/** The current blockhash, recorded as issued (on disk first when `sync`) so transactions signed with it land. */
export function issueBlockhash(state: LocalnetState, sync: boolean): { blockhash: string; issuedAt: bigint } {
  const { clock } = state;
  const blockhash = clock.currentBlockhash;
  const known = clock.issued.get(blockhash);
  if (known !== undefined) return { blockhash, issuedAt: known };
  state.disk.append([{ t: 'bh', h: blockhash, s: clock.slot.toString() }], sync);
  state.disk.issueMark = state.disk.mark();
  clock.issued.set(blockhash, clock.slot);
  return { blockhash, issuedAt: clock.slot };
}

/**
 * The current blockhash, answered once its issue is on disk (one fsync shared with concurrent
 * sends). Only the issue is waited for, not sends written after it: usually nothing is waited for.
 */
export async function latestBlockhash(state: LocalnetState): Promise<IssuedBlockhash> {
  const { blockhash, issuedAt } = issueBlockhash(state, false);
  await state.disk.durable(state.disk.issueMark);
  return { blockhash, lastValidBlockHeight: state.clock.lastValidBlockHeight(issuedAt) };
}
