import type {
  ChainCommitment,
  ChainStatus,
  PrioritizationFee,
  TransactionErrorJson,
} from '@token-actions/core';
import type { RecordLocation } from '../persistence/records.js';

/** Window of slots the real getRecentPrioritizationFees reports over. */
export const PRIORITIZATION_FEE_SLOTS = 150n;

export interface Landed {
  readonly slot: bigint;
  /** Readable explanation of the failure, when the transaction landed with an error. */
  readonly error?: string;
  /** The same failure as the JSON-RPC reports it. */
  readonly err?: TransactionErrorJson;
  location?: RecordLocation;
  /**
   * The journal's mark once its record was appended: until that much is on disk the transaction
   * is not reported (statuses, getTransaction, address history, subscriptions), because a crash
   * would take it back. Undefined for a localnet without a journal, and after a restart.
   */
  durableAt?: number;
  /** Last block height at which the transaction's blockhash is valid: past it a resend is refused
   * anyway, so the record may be forgotten without risking a second execution. */
  readonly lastValidBlockHeight: bigint;
}

interface SlotFees {
  blockMin: bigint;
  readonly byAccount: Map<string, bigint>;
}

export interface LedgerDepths {
  readonly confirmationDepthSlots: bigint;
  readonly finalityDepthSlots: bigint;
  readonly historySize: number;
}

/** What the localnet remembers about landed transactions: statuses, dedupe, prioritization fees. */
export class Ledger {
  private readonly landed = new Map<string, Landed>();
  private readonly fees = new Map<bigint, SlotFees>();

  constructor(
    private readonly depths: LedgerDepths,
    /** The localnet's first slot: there is no fee history before it. */
    private readonly genesisSlot: bigint,
  ) {}

  has(signature: string): boolean {
    return this.landed.has(signature);
  }

  get(signature: string): Landed | undefined {
    return this.landed.get(signature);
  }

  /** Every remembered transaction, oldest first. */
  entries(): IterableIterator<[string, Landed]> {
    return this.landed.entries();
  }

  get size(): number {
    return this.landed.size;
  }

  commitmentOf(entry: Landed, currentSlot: bigint): ChainCommitment {
    const depth = currentSlot - entry.slot;
    return depth >= this.depths.finalityDepthSlots
      ? 'finalized'
      : depth >= this.depths.confirmationDepthSlots
        ? 'confirmed'
        : 'processed';
  }

  record(
    signature: string,
    entry: Landed,
    currentSlot: bigint,
    fee?: { price: bigint; writable: readonly string[] },
  ): void {
    this.landed.set(signature, entry);
    if (fee) this.recordFee(entry.slot, fee.price, fee.writable);
    if (this.landed.size > this.depths.historySize) this.forgetExpired(currentSlot);
  }

  recordFee(slot: bigint, price: bigint, writable: readonly string[]): void {
    let slotFees = this.fees.get(slot);
    if (!slotFees) {
      slotFees = { blockMin: price, byAccount: new Map() };
      this.fees.set(slot, slotFees);
    } else if (price < slotFees.blockMin) {
      slotFees.blockMin = price;
    }
    for (const account of writable) {
      const previous = slotFees.byAccount.get(account);
      if (previous === undefined || price < previous) slotFees.byAccount.set(account, price);
    }
  }

  status(signature: string, currentSlot: bigint): ChainStatus | null {
    const entry = this.landed.get(signature);
    return entry ? this.statusOf(entry, currentSlot) : null;
  }

  statusOf(entry: Landed, currentSlot: bigint): ChainStatus {
    const commitment = this.commitmentOf(entry, currentSlot);
    return entry.error === undefined
      ? { commitment, slot: entry.slot }
      : { commitment, slot: entry.slot, error: entry.error };
  }

  /**
   * Like the RPC method: one entry per recent slot; with accounts, the fee a transaction locking all
   * of them writable had to beat (the highest of the per-account minimums and the block minimum).
   */
  prioritizationFees(accounts: readonly string[], currentSlot: bigint): PrioritizationFee[] {
    const out: PrioritizationFee[] = [];
    const windowStart = currentSlot - PRIORITIZATION_FEE_SLOTS + 1n;
    for (
      let slot = windowStart < this.genesisSlot ? this.genesisSlot : windowStart;
      slot <= currentSlot;
      slot++
    ) {
      const slotFees = this.fees.get(slot);
      let fee = slotFees?.blockMin ?? 0n;
      if (slotFees) {
        for (const account of accounts) {
          const accountFee = slotFees.byAccount.get(account);
          if (accountFee !== undefined && accountFee > fee) fee = accountFee;
        }
      }
      out.push({ slot, fee });
    }
    return out;
  }

  /** Drops prioritization fees that fell out of the window. */
  advanceTo(currentSlot: bigint): void {
    const oldest = currentSlot - PRIORITIZATION_FEE_SLOTS;
    for (const slot of this.fees.keys()) {
      if (slot <= oldest) this.fees.delete(slot);
    }
  }

  /** Drops prioritization fees that fell out of the window, and (after a restart) old entries. */
  trim(currentSlot: bigint): void {
    this.advanceTo(currentSlot);
    if (this.landed.size > this.depths.historySize) this.forgetExpired(currentSlot);
  }

  private forgetExpired(currentSlot: bigint): void {
    // Insertion order is landing order, so the oldest entries come first.
    for (const [signature, entry] of this.landed) {
      if (this.landed.size <= this.depths.historySize) return;
      if (entry.lastValidBlockHeight >= currentSlot) return;
      this.landed.delete(signature);
    }
  }
}
