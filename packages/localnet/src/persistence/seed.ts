import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fsyncDirectory } from './lock.js';

const SEED = 'seed';

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
