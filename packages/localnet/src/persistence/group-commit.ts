/**
 * Group commit for an append-only file: appends are counted at once (in order, on the caller's
 * thread, so offsets and the file's order are fixed there), and callers that need them durable wait
 * for a flush, which writes and syncs them. One flush runs at a time, off the event loop; whoever
 * asks while one runs waits for the next one, which then covers every append made meanwhile. So N
 * concurrent sends cost one write and one fsync, not N, and none of them is answered before its
 * own bytes are on disk.
 */

interface Waiter {
  readonly through: number;
  readonly resolve: () => void;
  readonly reject: (cause: Error) => void;
}

export class GroupCommit {
  /** Bytes known to be on disk. */
  private durable: number;
  private flushing = false;
  private failed: Error | undefined;
  private readonly waiting: Waiter[] = [];

  /**
   * @param flush makes durable everything written so far (runs off the event loop).
   * @param written how many bytes have been written so far.
   */
  constructor(
    private readonly flush: () => Promise<void>,
    private readonly written: () => number,
    durable: number,
  ) {
    this.durable = durable;
  }

  /** How many bytes are known to be on disk. */
  get durableBytes(): number {
    return this.durable;
  }

  /** Resolves once the first `through` bytes are on disk; rejects if a flush failed. */
  durableThrough(through: number): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    if (through <= this.durable) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ through, resolve, reject });
      if (!this.flushing) this.start();
    });
  }

  /** A flush done outside (a synchronous one) made the first `through` bytes durable. */
  flushed(through: number): void {
    if (through > this.durable) this.durable = through;
    this.answer();
  }

  /** Ends the waiting with an error (the file is closing and its last flush failed). */
  fail(cause: Error): void {
    this.failed ??= cause;
    for (const waiter of this.waiting.splice(0)) waiter.reject(this.failed);
  }

  private answer(): void {
    let kept = 0;
    for (const waiter of this.waiting) {
      if (waiter.through <= this.durable) waiter.resolve();
      else this.waiting[kept++] = waiter;
    }
    this.waiting.length = kept;
  }

  private start(): void {
    this.flushing = true;
    const target = this.written();
    this.flush().then(
      () => {
        this.flushing = false;
        this.flushed(target);
        if (this.waiting.length > 0 && !this.failed) this.start();
      },
      (cause: unknown) => {
        this.flushing = false;
        this.fail(cause instanceof Error ? cause : new Error(String(cause)));
      },
    );
  }
}
