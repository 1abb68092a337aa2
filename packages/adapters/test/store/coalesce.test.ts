import { describe, expect, it } from 'vitest';
import { coalesce } from '../../src/store/pg/coalesce.js';

/** A batch write the test completes by hand; `join` takes queued items into the batch first. */
function manualWrite() {
  const batches: {
    items: readonly number[];
    joined: number[];
    join: (fits: (n: number) => boolean) => number[];
    done: () => void;
    fail: (cause: Error) => void;
  }[] = [];
  const write = coalesce<number, string>(
    (items, join) =>
      new Promise((resolve, reject) => {
        const joined: number[] = [];
        batches.push({
          items,
          joined,
          join: (fits) => {
            const taken = join(fits);
            joined.push(...taken);
            return taken;
          },
          done: () =>
            resolve(
              [...items, ...joined].map(
                (n): PromiseSettledResult<string> =>
                  n < 0
                    ? { status: 'rejected', reason: new Error(`row ${n} refused`) }
                    : { status: 'fulfilled', value: `row ${n}` },
              ),
            ),
          fail: reject,
        });
      }),
    4,
  );
  return { write, batches };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('coalesce', () => {
  it('writes the calls of one task together, and those made meanwhile in the next batch', async () => {
    const { write, batches } = manualWrite();
    const answers: string[] = [];
    for (const n of [1, 2]) void write(n).then((row) => answers.push(row));
    await settled();
    expect(batches.map((b) => b.items)).toEqual([[1, 2]]);
    // Six arrive while the first batch is written: they wait, then go in batches of at most four.
    for (const n of [3, 4, 5, 6, 7, 8]) void write(n).then((row) => answers.push(row));
    await settled();
    expect(batches).toHaveLength(1);
    expect(answers).toEqual([]);
    batches[0]!.done();
    await settled();
    expect(answers).toEqual(['row 1', 'row 2']);
    expect(batches.map((b) => b.items)).toEqual([
      [1, 2],
      [3, 4, 5, 6],
    ]);
    batches[1]!.done();
    await settled();
    expect(batches[2]!.items).toEqual([7, 8]);
    batches[2]!.done();
    await settled();
    expect(answers).toEqual(['row 1', 'row 2', 'row 3', 'row 4', 'row 5', 'row 6', 'row 7', 'row 8']);
  });

  it('lets a batch being written take in what fits of the calls made meanwhile, while it has room', async () => {
    const { write, batches } = manualWrite();
    const answers: string[] = [];
    void write(2).then((row) => answers.push(row));
    await settled();
    for (const n of [3, 4, 6, 5, 8, 10]) void write(n).then((row) => answers.push(row));
    await settled();
    // The even ones fit, in arrival order, until the batch holds four; the rest keep their order.
    expect(batches[0]!.join((n) => n % 2 === 0)).toEqual([4, 6, 8]);
    expect(batches[0]!.join((n) => n % 2 === 0)).toEqual([]);
    batches[0]!.done();
    await settled();
    expect(answers).toEqual(['row 2', 'row 4', 'row 6', 'row 8']);
    expect(batches[1]!.items).toEqual([3, 5, 10]);
    batches[1]!.done();
    await settled();
    expect(answers.slice(4)).toEqual(['row 3', 'row 5', 'row 10']);
  });

  it('fails only the caller of a refused row', async () => {
    const { write, batches } = manualWrite();
    const answers = [write(1), write(-2), write(3)].map((pending) =>
      pending.then(
        (row) => row,
        (cause: Error) => cause.message,
      ),
    );
    await settled();
    batches[0]!.done();
    expect(await Promise.all(answers)).toEqual(['row 1', 'row -2 refused', 'row 3']);
  });

  it('fails only the callers of a failed batch, and keeps writing', async () => {
    const { write, batches } = manualWrite();
    const failed = write(1).then(
      () => 'written',
      (cause: Error) => cause.message,
    );
    await settled();
    const next = write(2);
    batches[0]!.fail(new Error('connection lost'));
    expect(await failed).toBe('connection lost');
    await settled();
    batches[1]!.done();
    expect(await next).toBe('row 2');
  });
});
