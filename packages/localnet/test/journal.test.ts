import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalnetJournal } from '../src/persistence/journal.js';
import type { JournalRecord } from '../src/persistence/records.js';

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'journal-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const slot = (n: number): JournalRecord => ({ t: 'slot', s: String(n) });
const journalFile = (dir: string) => join(dir, readdirSync(dir).find((name) => name.startsWith('journal-'))!);
const openDescriptors = () => readdirSync('/proc/self/fd').length;
const replayAll = (journal: LocalnetJournal) => {
  const seen: JournalRecord[] = [];
  journal.replay((record) => seen.push(record));
  return seen;
};

describe('LocalnetJournal', () => {
  it('replays across read-chunk boundaries and reads records back by location', () => {
    const dir = fresh();
    const writer = LocalnetJournal.open(dir);
    expect(replayAll(writer)).toEqual([]);
    const records = Array.from({ length: 200 }, (_, i) => slot(i * 7919));
    const locations = records.flatMap((record, i) => writer.append([record], i % 10 === 0));
    expect(writer.read(locations[123]!)).toEqual(records[123]);
    writer.close();

    for (const chunk of [1, 7, 64, 4096]) {
      const reader = LocalnetJournal.open(dir, { readChunkBytes: chunk });
      expect(replayAll(reader)).toEqual(records);
      reader.close();
    }
  });

  it('cuts a torn tail wherever the chunks fall, and refuses a bad line followed by good ones', () => {
    const dir = fresh();
    const writer = LocalnetJournal.open(dir);
    replayAll(writer);
    writer.append([slot(1), slot(2), slot(3)], true);
    writer.close();
    const file = join(dir, readdirSync(dir).find((name) => name.startsWith('journal-'))!);
    const intact = readFileSync(file);

    // A whole last line with a bad checksum counts as torn too (its data never reached the disk).
    appendFileSync(file, `deadbeef {"t":"slot","s":"4"}\n0000`);
    const reader = LocalnetJournal.open(dir, { readChunkBytes: 5 });
    expect(replayAll(reader)).toEqual([slot(1), slot(2), slot(3)]);
    reader.append([slot(5)], true);
    reader.close();
    expect(readFileSync(file).subarray(0, intact.length).equals(intact)).toBe(true);

    const lines = readFileSync(file, 'utf8').split('\n');
    lines[1] = lines[1]!.replace('"2"', '"9"');
    writeFileSync(file, lines.join('\n'));
    expect(() => replayAll(LocalnetJournal.open(dir, { readChunkBytes: 3 }))).toThrow(/corrupt at byte/);
  });

  it('compacts into a snapshot and a new journal generation', () => {
    const dir = fresh();
    const journal = LocalnetJournal.open(dir);
    replayAll(journal);
    journal.append([{ t: 'head', v: 1, genesis: 'g', firstSlot: '1', gen: 0 }, slot(1), slot(2)], true);
    journal.compact((emit) => {
      emit({ t: 'head', v: 1, genesis: 'g', firstSlot: '1', gen: 0 });
      emit(slot(2));
    });
    journal.append([slot(3)], true);
    journal.close();
    expect(readdirSync(dir).sort()).toEqual(['journal-1.jsonl', 'snapshot.jsonl']);
    const reopened = LocalnetJournal.open(dir, { readChunkBytes: 11 });
    expect(replayAll(reopened)).toEqual([
      { t: 'head', v: 1, genesis: 'g', firstSlot: '1', gen: 1 },
      slot(2),
      slot(3),
    ]);
    reopened.close();
  });

  // A write to a file whose fdatasync runs can wait for the disk, so appends are written by the
  // flush, on the thread pool, never on the caller's thread.
  it('writes appends only when a flush makes them durable, and reads them back meanwhile', async () => {
    const dir = fresh();
    const journal = LocalnetJournal.open(dir);
    replayAll(journal);
    journal.append([slot(1)], true);
    const synced = statSync(journalFile(dir)).size;
    const [location] = journal.append([slot(2), slot(3)], false);
    expect(statSync(journalFile(dir)).size).toBe(synced);
    expect(journal.read(location!)).toEqual(slot(2));
    await journal.durable();
    expect(statSync(journalFile(dir)).size).toBeGreaterThan(synced);
    expect(journal.read(location!)).toEqual(slot(2));
    journal.close();
    const reopened = LocalnetJournal.open(dir);
    expect(replayAll(reopened)).toEqual([slot(1), slot(2), slot(3)]);
    reopened.close();
  });

  it('stays whole when a synchronous sync or a close meets a flush that is still writing', async () => {
    const dir = fresh();
    const before = openDescriptors();
    const journal = LocalnetJournal.open(dir);
    replayAll(journal);
    const records = Array.from({ length: 600 }, (_, i) => slot(i));
    const flushes: Promise<void>[] = [];
    for (let i = 0; i < 600; i += 3) {
      journal.append(records.slice(i, i + 3), false);
      // A flush starts writing; a slot reservation syncs on this thread while it does.
      if (i % 30 === 0) flushes.push(journal.durable());
      if (i % 45 === 0) journal.sync();
    }
    const last = journal.durable();
    journal.append([slot(600)], false);
    journal.close();
    await Promise.all([...flushes, last]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The descriptor a running flush wrote to is closed once its write returns.
    expect(openDescriptors()).toBe(before);
    const reopened = LocalnetJournal.open(dir);
    expect(replayAll(reopened)).toEqual([...records, slot(600)]);
    reopened.close();
  });
});
