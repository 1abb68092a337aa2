import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { RecordLocation } from './ledger.js';

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
 */

const SNAPSHOT = 'snapshot.jsonl';
const READ_CHUNK = 8 * 1024 * 1024;
const SNAPSHOT_TMP = 'snapshot.jsonl.tmp';
const LOCK = 'LOCK';
const SEED = 'seed';
const JOURNAL = /^journal-(\d+)\.jsonl$/;

export const JOURNAL_FORMAT = 1;

/** One line of the journal or snapshot. Numbers that may exceed 2^53 travel as decimal strings. */
export type JournalRecord =
  | {
      readonly t: 'head';
      readonly v: number;
      /** The localnet's genesis hash: a directory belongs to one seed. */
      readonly genesis: string;
      readonly firstSlot: string;
      /** Generation of the journal that follows this snapshot. */
      readonly gen: number;
      /** Transactions landed before this snapshot (its own records are not counted again). */
      readonly txCount?: string;
    }
  | { readonly t: 'slot'; readonly s: string }
  | { readonly t: 'bh'; readonly h: string; readonly s: string }
  | { readonly t: 'acct'; readonly a: readonly StoredAccountJson[]; readonly x?: readonly string[] }
  | { readonly t: 'nft'; readonly o: readonly (readonly [string, string])[] }
  | TxRecordJson;

/** [address, lamports, owner, executable (0/1), data as base64] */
export type StoredAccountJson = readonly [string, string, string, 0 | 1, string];

export interface TxRecordJson {
  readonly t: 'tx';
  /** The signed transaction, base64. */
  readonly w: string;
  readonly s: string;
  /** Last valid block height of its blockhash. */
  readonly v: string;
  /** Block time, unix seconds. */
  readonly bt: number;
  readonly f: string;
  readonly cu: string;
  readonly e?: unknown;
  readonly m?: string;
  readonly l?: readonly string[];
  readonly pre?: readonly string[];
  readonly post?: readonly string[];
  /** Accounts the transaction wrote, as they were after it. */
  readonly a?: readonly StoredAccountJson[];
  /** Accounts it closed. */
  readonly x?: readonly string[];
  /** NFTs it minted: [mint, owner]. */
  readonly o?: readonly (readonly [string, string])[];
}

function encodeLine(record: JournalRecord): Buffer {
  const json = Buffer.from(JSON.stringify(record), 'utf8');
  const crc = crc32(json).toString(16).padStart(8, '0');
  return Buffer.concat([Buffer.from(`${crc} `, 'latin1'), json, Buffer.from('\n', 'latin1')]);
}

function decodeLine(line: Buffer): JournalRecord | undefined {
  if (line.length < 10 || line[8] !== 0x20) return undefined;
  const json = line.subarray(9);
  if (crc32(json).toString(16).padStart(8, '0') !== line.subarray(0, 8).toString('latin1')) return undefined;
  try {
    return JSON.parse(json.toString('utf8')) as JournalRecord;
  } catch {
    return undefined;
  }
}

function openIfExists(path: string): number | undefined {
  try {
    return openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Lock files this process holds: a lock naming our pid that is not here was left by an earlier
 * process that had the same pid (a container's pid 1 after a restart). */
const heldLocks = new Set<string>();

/** When a process started, in clock ticks since boot (Linux); tells a reused pid from the original. */
function startTicks(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

function lockHeld(path: string, content: string): boolean {
  const [pidText, ticks = ''] = content.trim().split(' ');
  const pid = Number.parseInt(pidText ?? '', 10);
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return heldLocks.has(path);
  if (!pidAlive(pid)) return false;
  return ticks === '' || startTicks(pid) === '' || startTicks(pid) === ticks;
}

/** Takes the directory for this process; a lock left by a dead process (kill -9) is taken over. */
function acquireLock(dir: string): string {
  const path = join(dir, LOCK);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid} ${startTicks(process.pid)}\n`);
      closeSync(fd);
      heldLocks.add(path);
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let content = '';
    try {
      content = readFileSync(path, 'utf8');
    } catch {
      // Vanished or unreadable: try again.
    }
    if (lockHeld(path, content)) {
      const holder = content.trim().split(' ')[0];
      throw new Error(
        holder === String(process.pid)
          ? `localnet state in ${dir} is already open in this process (close the other chain first)`
          : `localnet state in ${dir} is in use by process ${holder}`,
      );
    }
    try {
      unlinkSync(path);
    } catch {
      // Another process took it over first; the next attempt sees its lock.
    }
  }
  throw new Error(`cannot lock localnet state in ${dir}`);
}

/** A localnet opened on a directory without a seed keeps the random one it made there. */
export function loadOrCreateSeed(dir: string): Uint8Array {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, SEED);
  try {
    const existing = readFileSync(path);
    if (existing.length !== 32) throw new Error(`${path} does not hold a 32-byte seed`);
    return new Uint8Array(existing);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const seed = new Uint8Array(randomBytes(32));
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, seed);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  fsyncDirectory(dir);
  return seed;
}

export type ReplayVisitor = (record: JournalRecord, location: RecordLocation) => void;

export class LocalnetJournal {
  private journalFd: number;
  private snapshotFd: number | undefined;
  private journalSize = 0;
  private generation = 0;
  private closed = false;
  private replayed = false;

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
      this.scan(snapshotFd, 'snapshot', snapshotPath, false, (record, location) => {
        if (record.t === 'head') head = record;
        visit(record, location);
      });
      if (!head) throw new Error(`${snapshotPath} has no head record`);
      this.generation = head.gen;
    }

    const journalPath = this.journalPath(this.generation);
    const existed = existsSync(journalPath);
    this.journalFd = openSync(journalPath, 'a+', 0o600);
    const size = fstatSync(this.journalFd).size;
    const goodBytes = this.scan(this.journalFd, 'journal', journalPath, true, (record, location) => {
      if (record.t === 'head') head ??= record;
      visit(record, location);
    });
    if (goodBytes < size) {
      ftruncateSync(this.journalFd, goodBytes);
      fdatasyncSync(this.journalFd);
    }
    this.journalSize = goodBytes;
    if (!existed) fsyncDirectory(this.dir);
    this.removeStale();
    return head;
  }

  /**
   * Visits every line of a file, reading it in chunks. Returns the length of its intact part: the
   * whole file, or (when allowed) everything before a torn last line.
   */
  private scan(
    fd: number,
    file: RecordLocation['file'],
    path: string,
    tornTailAllowed: boolean,
    visit: ReplayVisitor,
  ): number {
    const size = fstatSync(fd).size;
    let position = 0;
    let carry = Buffer.alloc(0);
    let carryOffset = 0;
    while (position < size || carry.length > 0) {
      let buffer = carry;
      if (position < size) {
        const chunk = Buffer.alloc(Math.min(this.readChunk, size - position));
        const read = readSync(fd, chunk, 0, chunk.length, position);
        position += read;
        buffer = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      }
      let offset = 0;
      for (;;) {
        const end = buffer.indexOf(0x0a, offset);
        if (end === -1) break;
        const line = buffer.subarray(offset, end);
        const record = decodeLine(line);
        const at = carryOffset + offset;
        if (!record) {
          // Only the last line may be torn; a crash cannot leave a bad line before good ones.
          if (tornTailAllowed && !this.hasLineAfter(fd, at + line.length + 1, size)) return at;
          throw new Error(`${path} is corrupt at byte ${at}`);
        }
        visit(record, { file, offset: at, length: line.length });
        offset = end + 1;
      }
      carry = buffer.subarray(offset);
      carryOffset += offset;
      if (position >= size && carry.length > 0) {
        // Bytes after the last newline: a line whose write was cut short.
        if (tornTailAllowed) return carryOffset;
        throw new Error(`${path} is corrupt at byte ${carryOffset}`);
      }
    }
    return carryOffset;
  }

  /** Whether a complete line (a newline) follows `from`. */
  private hasLineAfter(fd: number, from: number, size: number): boolean {
    const chunk = Buffer.alloc(this.readChunk);
    for (let position = from; position < size; position += this.readChunk) {
      const read = readSync(fd, chunk, 0, Math.min(this.readChunk, size - position), position);
      if (chunk.subarray(0, read).includes(0x0a)) return true;
    }
    return false;
  }

  private removeStale(): void {
    for (const name of readdirSync(this.dir)) {
      const match = JOURNAL.exec(name);
      if (name === SNAPSHOT_TMP || (match && Number(match[1]) !== this.generation)) {
        unlinkSync(join(this.dir, name));
      }
    }
  }

  /** Appends records; with `sync`, returns only once they are on disk. */
  append(records: readonly JournalRecord[], sync: boolean): RecordLocation[] {
    if (this.closed) throw new Error('the localnet journal is closed');
    const lines = records.map(encodeLine);
    const buffer = lines.length === 1 ? lines[0]! : Buffer.concat(lines);
    let written = 0;
    while (written < buffer.length) {
      written += writeSync(this.journalFd, buffer, written, buffer.length - written);
    }
    if (sync) fdatasyncSync(this.journalFd);
    const locations: RecordLocation[] = [];
    let offset = this.journalSize;
    for (const line of lines) {
      locations.push({ file: 'journal', offset, length: line.length - 1 });
      offset += line.length;
    }
    this.journalSize = offset;
    return locations;
  }

  sync(): void {
    if (!this.closed) fdatasyncSync(this.journalFd);
  }

  read(location: RecordLocation): JournalRecord | undefined {
    const fd = location.file === 'journal' ? this.journalFd : this.snapshotFd;
    if (fd === undefined || this.closed) return undefined;
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
        const buffer = Buffer.concat(chunks);
        let written = 0;
        while (written < buffer.length) written += writeSync(fd, buffer, written, buffer.length - written);
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
    const oldJournal = this.journalPath(this.generation);
    renameSync(tmpPath, join(this.dir, SNAPSHOT));
    fsyncDirectory(this.dir);
    if (this.snapshotFd !== undefined) closeSync(this.snapshotFd);
    closeSync(this.journalFd);
    this.snapshotFd = openSync(join(this.dir, SNAPSHOT), 'r');
    this.generation = nextGeneration;
    this.journalFd = openSync(this.journalPath(nextGeneration), 'a+', 0o600);
    this.journalSize = fstatSync(this.journalFd).size;
    unlinkSync(oldJournal);
    fsyncDirectory(this.dir);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.journalFd >= 0) closeSync(this.journalFd);
    if (this.snapshotFd !== undefined) closeSync(this.snapshotFd);
    heldLocks.delete(this.lockPath);
    try {
      unlinkSync(this.lockPath);
    } catch {
      // Already gone.
    }
  }
}
