import {
  closeSync,
  constants,
  existsSync,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  unlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { GroupCommit } from './group-commit.js';
import { acquireLock, fsyncDirectory, releaseLock } from './lock.js';
import { writeFully, writeFullySync } from './positional-write.js';
import { openIfExists, type ReplayVisitor, scanLines } from './read-lines.js';
import { decodeLine, encodeLine, type JournalRecord, type RecordLocation } from './records.js';

/**
 * The localnet's durable state: an append-only journal of JSON lines, fsynced before a send is
 * acknowledged, plus a snapshot that a start-up compaction writes when the journal has grown.
 *
 * Layout under the directory:
 * - `snapshot.jsonl`: the compacted state; its first line names the journal generation that follows it.
 * - `journal-<generation>.jsonl`: records appended since that snapshot.
 * - `LOCK`: the pid of the process that has the directory open.
 * - `seed`: the chain's 32-byte seed, only when it was opened without one.
 *
 * Every line is `<crc32 as 8 hex digits> <json>\n`. A torn last line (a crash mid-write) is cut off
 * at the next open; a bad line followed by good ones is corruption and stops the start.
 *
 * Appends are kept in memory until a flush writes them, at their offsets, on libuv's thread pool
 * just before its fdatasync, never on the event loop: a `write` to a file whose fdatasync is
 * running can wait for the disk, and on the event loop that stops every request. A synchronous `sync` writes what is
 * pending on the calling thread, including bytes a flush is still writing (the same bytes at the
 * same offsets), so the file is always written from its end onward, without holes.
 */

const SNAPSHOT = 'snapshot.jsonl';
const READ_CHUNK = 8 * 1024 * 1024;
const SNAPSHOT_TMP = 'snapshot.jsonl.tmp';
const JOURNAL = /^journal-(\d+)\.jsonl$/;

/** Opened for positional writes: not O_APPEND, which would make Linux ignore the offsets. */
const JOURNAL_FLAGS = constants.O_RDWR | constants.O_CREAT;

/** Appended bytes not yet written to the journal file, starting at `offset`. */
interface Pending {
  readonly offset: number;
  readonly bytes: Buffer;
}

export class LocalnetJournal {
  private journalFd: number;
  private snapshotFd: number | undefined;
  /** The journal's length with what is pending. */
  private journalSize = 0;
  /** Appended, not yet handed to a write, in order and contiguous, ending at `journalSize`. */
  private pending: Pending[] = [];
  /** What the running flush is writing, until its write returns. */
  private writing: (Pending & { readonly fd: number }) | undefined;
  /** A descriptor a compaction or close retired while a flush was writing to it. */
  private closeAfterWrite: number | undefined;
  private generation = 0;
  private closed = false;
  private replayed = false;
  /** Bytes appended since open, across compactions: what the group commit counts in. */
  private appended = 0;
  private readonly commit = new GroupCommit(
    () => this.flushAsync(),
    () => this.appended,
    0,
  );

  private constructor(
    readonly dir: string,
    private readonly lockPath: string,
    private readonly readChunk: number,
  ) {
    this.snapshotFd = undefined;
    this.journalFd = -1;
  }

  /** Opens (creating) the directory and locks it. Call `replay` next, once. */
  static open(dir: string, options: { readonly readChunkBytes?: number } = {}): LocalnetJournal {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const lockPath = acquireLock(dir);
    return new LocalnetJournal(dir, lockPath, options.readChunkBytes ?? READ_CHUNK);
  }

  get bytes(): number {
    return this.journalSize;
  }

  private journalPath(generation: number): string {
    return join(this.dir, `journal-${generation}.jsonl`);
  }

  /**
   * Visits the snapshot's records, then the journal's, in order; cuts off a torn tail.
   * Returns the head record (undefined for a fresh directory).
   */
  replay(visit: ReplayVisitor): Extract<JournalRecord, { t: 'head' }> | undefined {
    if (this.replayed) throw new Error('replay runs once');
    this.replayed = true;
    let head: Extract<JournalRecord, { t: 'head' }> | undefined;
    const snapshotPath = join(this.dir, SNAPSHOT);
    const snapshotFd = openIfExists(snapshotPath);
    if (snapshotFd !== undefined) {
      this.snapshotFd = snapshotFd;
      // A snapshot is complete (it was renamed into place after an fsync): any bad line is corruption.
      scanLines(
        snapshotFd,
        { file: 'snapshot', path: snapshotPath, tornTailAllowed: false, readChunk: this.readChunk },
        (record, location) => {
          if (record.t === 'head') head = record;
          visit(record, location);
        },
      );
      if (!head) throw new Error(`${snapshotPath} has no head record`);
      this.generation = head.gen;
    }

    const journalPath = this.journalPath(this.generation);
    const existed = existsSync(journalPath);
    this.journalFd = openSync(journalPath, JOURNAL_FLAGS, 0o600);
    const size = fstatSync(this.journalFd).size;
    const goodBytes = scanLines(
      this.journalFd,
      { file: 'journal', path: journalPath, tornTailAllowed: true, readChunk: this.readChunk },
      (record, location) => {
        if (record.t === 'head') head ??= record;
        visit(record, location);
      },
    );
    if (goodBytes < size) {
      ftruncateSync(this.journalFd, goodBytes);
      fdatasyncSync(this.journalFd);
    }
    this.journalSize = goodBytes;
    if (!existed) fsyncDirectory(this.dir);
    this.removeStale();
    return head;
  }

  private removeStale(): void {
    for (const name of readdirSync(this.dir)) {
      const match = JOURNAL.exec(name);
      if (name === SNAPSHOT_TMP || (match && Number(match[1]) !== this.generation)) {
        unlinkSync(join(this.dir, name));
      }
    }
  }

  /**
   * Appends records (written at once, so their order and offsets are fixed here); with `sync`,
   * returns only once they are on disk, else `durable()` says when they are.
   */
  append(records: readonly JournalRecord[], sync: boolean): RecordLocation[] {
    if (this.closed) throw new Error('the localnet journal is closed');
    const lines = records.map(encodeLine);
    const buffer = lines.length === 1 ? lines[0]! : Buffer.concat(lines);
    this.pending.push({ offset: this.journalSize, bytes: buffer });
    this.appended += buffer.length;
    const locations: RecordLocation[] = [];
    let offset = this.journalSize;
    for (const line of lines) {
      locations.push({ file: 'journal', offset, length: line.length - 1 });
      offset += line.length;
    }
    this.journalSize = offset;
    if (sync) this.sync();
    return locations;
  }

  /** Makes everything appended so far durable, on this thread (start-up, faucet, slot reservations). */
  sync(): void {
    if (this.closed) return;
    const through = this.appended;
    for (const { offset, bytes } of this.unwritten()) writeFullySync(this.journalFd, bytes, offset);
    this.pending = [];
    fdatasyncSync(this.journalFd);
    this.commit.flushed(through);
  }

  /**
   * Resolves once everything appended so far (or up to a mark) is on disk. Concurrent callers share one fdatasync,
   * run on libuv's thread pool so the event loop keeps executing while the disk works.
   */
  durable(through = this.appended): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the localnet journal is closed'));
    return this.commit.durableThrough(through);
  }

  /** How many of the bytes appended since open are known to be on disk (a mark, as `appendedBytes`). */
  get durableBytes(): number {
    return this.commit.durableBytes;
  }

  /** How many bytes were appended since open: a mark to wait on with `durable(mark)`. */
  get appendedBytes(): number {
    return this.appended;
  }

  /** Writes what is pending, then fdatasyncs, both on the thread pool. */
  private flushAsync(): Promise<void> {
    const fd = this.journalFd;
    const batch = this.pending;
    this.pending = [];
    return new Promise<void>((resolve, reject) => {
      // A close or a compaction in the meantime wrote and synced the file itself.
      const settle = (error: Error | null) => {
        if (error && !this.closed && fd === this.journalFd) reject(error);
        else resolve();
      };
      const sync = () => fdatasync(fd, settle);
      if (batch.length === 0) return sync();
      const bytes = batch.length === 1 ? batch[0]!.bytes : Buffer.concat(batch.map((p) => p.bytes));
      this.writing = { fd, offset: batch[0]!.offset, bytes };
      writeFully(fd, bytes, batch[0]!.offset, (error) => {
        this.writing = undefined;
        if (this.closeAfterWrite === fd) {
          this.closeAfterWrite = undefined;
          closeSync(fd);
          return resolve();
        }
        if (error) {
          // Kept, in order, for a later `sync` (close): bytes after them must not land past a hole.
          if (fd === this.journalFd) this.pending.unshift({ offset: batch[0]!.offset, bytes });
          return settle(error);
        }
        sync();
      });
    });
  }

  /** Closes a journal descriptor now, or once the flush writing to it returns (its number must not be reused before). */
  private retire(fd: number): void {
    if (this.writing?.fd === fd) this.closeAfterWrite = fd;
    else closeSync(fd);
  }

  /** The current journal's bytes not known to be written: the running flush's first, as in the file. */
  private unwritten(): readonly Pending[] {
    return this.writing?.fd === this.journalFd ? [this.writing, ...this.pending] : this.pending;
  }

  /** A record still in memory, when `location` is past what was written. */
  private unwrittenLine(location: RecordLocation): Buffer | undefined {
    for (const { offset, bytes } of this.unwritten()) {
      if (location.offset >= offset && location.offset + location.length <= offset + bytes.length) {
        return bytes.subarray(location.offset - offset, location.offset - offset + location.length);
      }
    }
    return undefined;
  }

  read(location: RecordLocation): JournalRecord | undefined {
    const fd = location.file === 'journal' ? this.journalFd : this.snapshotFd;
    if (fd === undefined || this.closed) return undefined;
    if (location.file === 'journal') {
      const line = this.unwrittenLine(location);
      if (line) return decodeLine(line);
    }
    const buffer = Buffer.alloc(location.length);
    const read = readSync(fd, buffer, 0, location.length, location.offset);
    return read === location.length ? decodeLine(buffer) : undefined;
  }

  /**
   * Rewrites the state as a new snapshot and starts an empty journal. `write` emits the records
   * (head first) and receives each one's location in the new snapshot. Crash-safe: the snapshot is
   * fsynced before it is renamed into place, and it names the generation of the journal after it,
   * so a leftover older journal is never replayed on top of it.
   */
  compact(write: (emit: (record: JournalRecord) => RecordLocation) => void): void {
    const tmpPath = join(this.dir, SNAPSHOT_TMP);
    const fd = openSync(tmpPath, 'w', 0o600);
    let offset = 0;
    const nextGeneration = this.generation + 1;
    try {
      const chunks: Buffer[] = [];
      let pending = 0;
      const flush = () => {
        if (pending === 0) return;
        writeFullySync(fd, Buffer.concat(chunks), offset - pending);
        chunks.length = 0;
        pending = 0;
      };
      write((record) => {
        const line = encodeLine(record.t === 'head' ? { ...record, gen: nextGeneration } : record);
        const location: RecordLocation = { file: 'snapshot', offset, length: line.length - 1 };
        chunks.push(line);
        pending += line.length;
        offset += line.length;
        if (pending > 1 << 20) flush();
        return location;
      });
      flush();
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // Everything appended before lives on in the snapshot, which is now on disk.
    this.pending = [];
    this.commit.flushed(this.appended);
    const oldJournal = this.journalPath(this.generation);
    renameSync(tmpPath, join(this.dir, SNAPSHOT));
    fsyncDirectory(this.dir);
    if (this.snapshotFd !== undefined) closeSync(this.snapshotFd);
    this.retire(this.journalFd);
    this.snapshotFd = openSync(join(this.dir, SNAPSHOT), 'r');
    this.generation = nextGeneration;
    this.journalFd = openSync(this.journalPath(nextGeneration), JOURNAL_FLAGS, 0o600);
    this.journalSize = fstatSync(this.journalFd).size;
    unlinkSync(oldJournal);
    fsyncDirectory(this.dir);
  }

  close(): void {
    if (this.closed) return;
    // Whoever still waits for a flush is answered by this last one.
    if (this.journalFd >= 0) {
      try {
        this.sync();
      } catch (cause) {
        this.commit.fail(cause as Error);
      }
    }
    this.closed = true;
    this.commit.fail(new Error('the localnet journal is closed'));
    if (this.journalFd >= 0) this.retire(this.journalFd);
    if (this.snapshotFd !== undefined) closeSync(this.snapshotFd);
    releaseLock(this.lockPath);
  }
}
