import { fstatSync, openSync, readSync } from 'node:fs';
import { decodeLine, type JournalRecord, type RecordLocation } from './records.js';

/** Reading the journal and the snapshot back, line by line, at start-up. */

export type ReplayVisitor = (record: JournalRecord, location: RecordLocation) => void;

/** A file being scanned: which one it is, and how a bad line in it is read. */
export interface ScannedFile {
  readonly file: RecordLocation['file'];
  /** For the error that names a corrupt file. */
  readonly path: string;
  /** Whether a bad last line is a write a crash cut short (the journal) rather than corruption. */
  readonly tornTailAllowed: boolean;
  /** How many bytes are read at a time. */
  readonly readChunk: number;
}

/** Opens a file for reading, or undefined when there is none. */
export function openIfExists(path: string): number | undefined {
  try {
    return openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Visits every line of a file, reading it in chunks. Returns the length of its intact part: the
 * whole file, or (when allowed) everything before a torn last line.
 */
export function scanLines(fd: number, source: ScannedFile, visit: ReplayVisitor): number {
  const { file, path, tornTailAllowed, readChunk } = source;
  const size = fstatSync(fd).size;
  let position = 0;
  let carry = Buffer.alloc(0);
  let carryOffset = 0;
  while (position < size || carry.length > 0) {
    let buffer = carry;
    if (position < size) {
      const chunk = Buffer.alloc(Math.min(readChunk, size - position));
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
        if (tornTailAllowed && !hasLineAfter(fd, at + line.length + 1, size, readChunk)) return at;
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
function hasLineAfter(fd: number, from: number, size: number, readChunk: number): boolean {
  const chunk = Buffer.alloc(readChunk);
  for (let position = from; position < size; position += readChunk) {
    const read = readSync(fd, chunk, 0, Math.min(readChunk, size - position), position);
    if (chunk.subarray(0, read).includes(0x0a)) return true;
  }
  return false;
}
