import { write, writeSync } from 'node:fs';

/**
 * Positional writes that write everything: a single `write` may write fewer bytes than asked, and
 * the journal must never leave a hole before bytes written after it.
 */

export /** Writes all of `bytes` at `offset`, on this thread. */
function writeFullySync(fd: number, bytes: Buffer, offset: number): void {
  let written = 0;
  while (written < bytes.length) {
    written += writeSync(fd, bytes, written, bytes.length - written, offset + written);
  }
}

/** Writes all of `bytes` at `offset`, on the thread pool. */
export function writeFully(
  fd: number,
  bytes: Buffer,
  offset: number,
  done: (error: Error | null) => void,
): void {
  let written = 0;
  const next = (error: Error | null, count: number) => {
    if (error) return done(error);
    written += count;
    if (written >= bytes.length) return done(null);
    write(fd, bytes, written, bytes.length - written, offset + written, next);
  };
  write(fd, bytes, 0, bytes.length, offset, next);
}
