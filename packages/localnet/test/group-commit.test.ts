import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GroupCommit } from '../src/persistence/group-commit.js';
import { LocalnetJournal } from '../src/persistence/journal.js';
import type { JournalRecord } from '../src/persistence/records.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A flush the test completes by hand, remembering how much was written when it started. */
function manualDisk() {
  let written = 0;
  const flushes: { covers: number; done: () => void; fail: (cause: Error) => void }[] = [];
  const commit = new GroupCommit(
    () =>
      new Promise<void>((resolve, reject) => {
        flushes.push({ covers: written, done: resolve, fail: reject });
      }),
    () => written,
    0,
  );
  return {
    commit,
    flushes,
    write: (bytes: number) => {
      written += bytes;
      return written;
    },
  };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('answers nobody before a flush that covers their bytes, and groups whoever waits meanwhile', async () => {
    const disk = manualDisk();
    const answered: number[] = [];
    const wait = (through: number) => disk.commit.durableThrough(through).then(() => answered.push(through));

    const first = disk.write(10);
    void wait(first);
    expect(disk.flushes).toHaveLength(1);
    // Three more sends arrive while the first flush runs: they share the next one.
    const later = [disk.write(5), disk.write(5), disk.write(5)];
    for (const through of later) void wait(through);
    expect(disk.flushes).toHaveLength(1);
    await settled();
    expect(answered).toEqual([]);

    disk.flushes[0]!.done();
    await settled();
    expect(answered).toEqual([10]);
    expect(disk.flushes).toHaveLength(2);
    expect(disk.flushes[1]!.covers).toBe(25);

    disk.flushes[1]!.done();
    await settled();
    expect(answered).toEqual([10, 15, 20, 25]);
    expect(disk.flushes).toHaveLength(2);
    // Already durable: answered without another flush.
    await disk.commit.durableThrough(20);
    expect(disk.flushes).toHaveLength(2);
  });

  it('rejects the waiters of a failed flush, and every later one', async () => {
    const disk = manualDisk();
    const outcome = disk.commit.durableThrough(disk.write(3)).then(
      () => 'durable',
      (cause: Error) => cause.message,
    );
    disk.flushes[0]!.fail(new Error('EIO'));
    expect(await outcome).toBe('EIO');
    await expect(disk.commit.durableThrough(disk.write(1))).rejects.toThrow('EIO');
  });

  it('counts a synchronous flush done outside', async () => {
    const disk = manualDisk();
    const through = disk.write(8);
    const waiting = disk.commit.durableThrough(through);
    disk.commit.flushed(through);
    await waiting;
    disk.flushes[0]!.done();
    await settled();
    expect(disk.flushes).toHaveLength(1);
  });
});

describe('LocalnetJournal group commit', () => {
  it('makes concurrently appended records durable together, and they replay after a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'journal-group-'));
    dirs.push(dir);
    const journal = LocalnetJournal.open(dir);
    journal.replay(() => {});
    const records: JournalRecord[] = Array.from({ length: 50 }, (_, i) => ({ t: 'slot', s: String(i) }));
    await Promise.all(
      records.map((record) => {
        journal.append([record], false);
        return journal.durable();
      }),
    );
    journal.close();
    await expect(journal.durable()).rejects.toThrow('closed');

    const reopened = LocalnetJournal.open(dir);
    const seen: JournalRecord[] = [];
    reopened.replay((record) => seen.push(record));
    reopened.close();
    expect(seen).toEqual(records);
  });

  it('answers a waiter left at close with the last flush close makes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'journal-group-'));
    dirs.push(dir);
    const journal = LocalnetJournal.open(dir);
    journal.replay(() => {});
    journal.append([{ t: 'slot', s: '1' }], false);
    const waiting = journal.durable();
    journal.close();
    await expect(waiting).resolves.toBeUndefined();
  });
});
