import type { CommitmentSlots, LandedTransaction } from '../pubsub/events.js';

/** What a listener hears of the localnet: each landing, and each move of the slot clock. */
export interface LocalnetListener {
  /** A transaction landed (it is recorded, and on disk for a persistent localnet). */
  onTransaction?(transaction: LandedTransaction): void;
  /** The clock moved to `slot`; `reached` holds the slot each commitment level has reached. */
  onSlot?(slot: bigint, reached: CommitmentSlots): void;
}

/** The localnet's listeners (its PubSub services). */
export class Listeners {
  private readonly listeners = new Set<LocalnetListener>();

  get size(): number {
    return this.listeners.size;
  }

  add(listener: LocalnetListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  // A listener that throws must not undo or stop what already happened on the chain, nor keep the
  // others from hearing of it.
  transaction(transaction: LandedTransaction): void {
    for (const listener of this.listeners) {
      try {
        listener.onTransaction?.(transaction);
      } catch {}
    }
  }

  slot(slot: bigint, reached: CommitmentSlots): void {
    for (const listener of this.listeners) {
      try {
        listener.onSlot?.(slot, reached);
      } catch {}
    }
  }
}
