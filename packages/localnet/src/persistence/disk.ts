import type { LocalnetJournal } from './journal.js';
import type { JournalRecord, RecordLocation } from './records.js';

/**
 * The localnet's durable side: its journal when it has a state directory, nothing otherwise.
 * Once a write fails the in-memory chain may be ahead of the disk, so nothing more is accepted.
 */
export class Disk {
  /** Set when a write to disk failed. */
  broken: string | undefined;
  closed = false;
  /** On disk: every slot shown so far is at or below it, so a restart resumes above it. */
  reservedSlot = 0n;
  /** Moving the reservation ahead in steps costs one fsync per step instead of one per slot. */
  private readonly reserveStep: bigint;

  constructor(
    readonly journal: LocalnetJournal | undefined,
    validity: bigint,
  ) {
    this.reserveStep = BigInt(Math.max(1, Math.min(32, Math.floor(Number(validity) / 4))));
  }

  /** Appends records; with `sync`, returns once they are on disk. Undefined without a journal. */
  append(records: JournalRecord[], sync: boolean): RecordLocation[] | undefined {
    if (!this.journal) return undefined;
    try {
      return this.journal.append(records, sync);
    } catch (cause) {
      this.broken = `localnet state could not be written: ${(cause as Error).message}`;
      throw cause;
    }
  }

  /** Makes everything appended so far durable, on this thread. */
  sync(): void {
    if (!this.journal) return;
    try {
      this.journal.sync();
    } catch (cause) {
      this.broken = `localnet state could not be written: ${(cause as Error).message}`;
      throw cause;
    }
  }

  /** Where the newest blockhash issue ends in the journal: handing it out waits for this much. */
  issueMark = 0;

  /** How much has been appended: a mark for `durable`. */
  mark(): number {
    return this.journal?.appendedBytes ?? 0;
  }

  /** Whether everything appended up to `mark` is on disk (always, without a journal). */
  isDurable(mark: number | undefined): boolean {
    return !this.journal || mark === undefined || mark <= this.journal.durableBytes;
  }

  /**
   * Resolves once everything appended so far (or up to `through`, a `mark()`) is on disk, sharing
   * one fsync with concurrent callers.
   */
  durable(through?: number): Promise<void> {
    if (!this.journal) return Promise.resolve();
    return this.journal.durable(through).catch((cause: unknown) => {
      this.broken ??= `localnet state could not be written: ${(cause as Error).message}`;
      throw cause;
    });
  }

  /** The reservation written ahead and waiting for the shared fsync, if any. */
  private reserving: bigint | undefined;

  /**
   * Records (durably) that slots up to `height` may be shown. Halfway through a step the next
   * reservation is written ahead and made durable by the group commit, off the event loop, so the
   * slot clock normally never waits for the disk; only when the clock catches up with a
   * reservation that is not on disk yet does it sync here, on this thread, as before.
   */
  reserveThrough(height: bigint): void {
    if (!this.journal) return;
    if (height >= this.reservedSlot) {
      const next = height + this.reserveStep;
      this.append([{ t: 'slot', s: next.toString() }], true);
      this.reservedSlot = next;
      return;
    }
    if (this.reserving !== undefined || height < this.reservedSlot - this.reserveStep / 2n) return;
    const ahead = this.reservedSlot + this.reserveStep;
    this.reserving = ahead;
    this.append([{ t: 'slot', s: ahead.toString() }], false);
    this.durable(this.mark()).then(
      () => {
        if (ahead > this.reservedSlot) this.reservedSlot = ahead;
        this.reserving = undefined;
      },
      // `durable` marked the disk broken; the next reservation syncs here and refuses.
      () => {
        this.reserving = undefined;
      },
    );
  }

  /** Why nothing may land now (a persistent localnet closed, or a failed write); undefined when all is well. */
  refusal(): string | undefined {
    if (this.journal && this.closed) return 'the localnet is closed';
    return this.broken;
  }

  /** Whether the slot must stand still: a persistent localnet that cannot record its slots. */
  frozen(): boolean {
    return this.journal !== undefined && (this.closed || this.broken !== undefined);
  }

  read(location: RecordLocation): JournalRecord | undefined {
    return this.journal && !this.closed ? this.journal.read(location) : undefined;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.journal?.close();
  }
}
