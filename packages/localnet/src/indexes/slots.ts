import { Recent } from '@token-actions/core';

/** Slot times kept exactly; older slots' times are estimated from the slot interval. */
const KEPT_SLOT_TIMES = 10_000;
/** agave samples performance once a minute and keeps 720 samples (12 hours). */
const SAMPLE_PERIOD_SECONDS = 60;
const KEPT_SAMPLES = 720;

export interface PerformanceSample {
  readonly slot: bigint;
  readonly numTransactions: bigint;
  readonly numNonVoteTransactions: bigint;
  readonly numSlots: bigint;
  readonly samplePeriodSecs: number;
}

/**
 * When each slot began (getBlock's and getBlockTime's `blockTime` for a slot that holds no
 * transaction), and agave's once-a-minute performance samples.
 */
export class SlotTimeline {
  private readonly times = new Recent<bigint, number>(KEPT_SLOT_TIMES);
  private reference: { slot: bigint; seconds: number };
  private readonly samples: PerformanceSample[] = [];
  private sampleStart: { slot: bigint; transactions: bigint; seconds: number };

  constructor(
    slot: bigint,
    transactions: bigint,
    private readonly slotIntervalMs: number,
    now = Date.now(),
  ) {
    const seconds = Math.floor(now / 1000);
    this.reference = { slot, seconds };
    this.sampleStart = { slot, transactions, seconds: now / 1000 };
    this.times.remember(slot, seconds);
  }

  /** The clock reached `slot`; `transactions` landed so far in all. */
  mark(slot: bigint, transactions: bigint, now = Date.now()): void {
    const seconds = Math.floor(now / 1000);
    this.times.remember(slot, seconds);
    this.reference = { slot, seconds };
    const elapsed = now / 1000 - this.sampleStart.seconds;
    if (elapsed < SAMPLE_PERIOD_SECONDS) return;
    const numTransactions = transactions - this.sampleStart.transactions;
    this.samples.unshift({
      slot,
      numTransactions,
      numNonVoteTransactions: numTransactions,
      numSlots: slot - this.sampleStart.slot,
      samplePeriodSecs: Math.round(elapsed),
    });
    if (this.samples.length > KEPT_SAMPLES) this.samples.pop();
    this.sampleStart = { slot, transactions, seconds: now / 1000 };
  }

  /** Unix seconds at which `slot` began: recorded, or estimated back from the latest slot. */
  timeOf(slot: bigint): number {
    const known = this.times.get(slot);
    if (known !== undefined) return known;
    const slots = Number(this.reference.slot - slot);
    return this.reference.seconds - Math.floor((slots * this.slotIntervalMs) / 1000);
  }

  /** Newest first. */
  performanceSamples(limit: number): PerformanceSample[] {
    return this.samples.slice(0, limit);
  }
}
