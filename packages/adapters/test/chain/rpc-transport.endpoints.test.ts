import { describe, expect, it } from 'vitest';
import { A, B, delayed, result, setup, status } from './rpc-transport.support.js';

const health = (transport: { health(): readonly { consecutiveFailures: number; benchedForMs: number }[] }) =>
  transport.health().map(({ consecutiveFailures, benchedForMs }) => [consecutiveFailures, benchedForMs]);

describe('rpc transport: several endpoints', () => {
  it('fails over to the second endpoint at once, and later calls go there while the first is benched', async () => {
    const { transport, run, times } = setup(
      { [A]: [status(503)], [B]: [result('from b')] },
      { endpoints: [A, B] },
    );
    expect(await run(transport.call('getSlot'))).toBe('from b');
    expect(await run(transport.call('getSlot'))).toBe('from b');
    expect(times(A)).toEqual([0]);
    expect(times(B)).toEqual([0, 0]);
    expect(health(transport)).toEqual([
      [1, 1_000],
      [0, 0],
    ]);
  });

  it('benches for longer with each failure in a row, tries the endpoint again after its bench, and a success resets it', async () => {
    const { time, transport, run, times } = setup(
      { [A]: [status(503), status(503), result('a')], [B]: [result('b')] },
      { endpoints: [A, B] },
    );
    expect(await run(transport.call('getSlot'))).toBe('b');
    time.advance(999);
    expect(await run(transport.call('getSlot'))).toBe('b');
    time.advance(1);
    // The bench is over: A is tried again, fails again, and is benched twice as long.
    expect(await run(transport.call('getSlot'))).toBe('b');
    expect(health(transport)[0]).toEqual([2, 2_000]);
    time.advance(2_000);
    expect(await run(transport.call('getSlot'))).toBe('a');
    expect(health(transport)[0]).toEqual([0, 0]);
    expect(times(A)).toEqual([0, 1_000, 3_000]);
  });

  it('caps the bench', async () => {
    const { time, transport, run } = setup(
      { [A]: [status(503)], [B]: [result('b')] },
      { endpoints: [A, B], policy: { benchMaxMs: 5_000 } },
    );
    for (let i = 0; i < 6; i++) {
      await run(transport.call('getSlot'));
      time.advance(transport.health()[0]!.benchedForMs);
    }
    await run(transport.call('getSlot'));
    expect(health(transport)[0]).toEqual([7, 5_000]);
  });

  it('benches an endpoint that answered 429 with Retry-After at least that long', async () => {
    const { time, transport, run, times } = setup(
      { [A]: [status(429, { 'retry-after': '10' }), result('a')], [B]: [result('b')] },
      { endpoints: [A, B] },
    );
    expect(await run(transport.call('getSlot'))).toBe('b');
    expect(health(transport)[0]).toEqual([1, 10_000]);
    time.advance(9_999);
    expect(await run(transport.call('getSlot'))).toBe('b');
    time.advance(1);
    expect(await run(transport.call('getSlot'))).toBe('a');
    expect(times(A)).toEqual([0, 10_000]);
  });

  it('when every endpoint is benched, uses the one whose bench ends first, at once', async () => {
    const { time, transport, run, failure, times } = setup(
      { [A]: [status(503)], [B]: [status(503), result('b')] },
      { endpoints: [A, B], policy: { maxAttempts: 1 } },
    );
    await failure(transport.call('getSlot')); // A: benched until 1,000
    await failure(transport.call('getSlot')); // B: benched until 1,000
    time.advance(500);
    await failure(transport.call('getSlot')); // both benched, A preferred on a tie: until 2,500
    expect(await run(transport.call('getSlot'))).toBe('b'); // B's bench ends first (1,000)
    expect(times(A)).toEqual([0, 500]);
    expect(times(B)).toEqual([0, 500]);
  });

  it('waits for a Retry-After when every endpoint asked for one and it fits the deadline', async () => {
    const { transport, run, times } = setup(
      {
        [A]: [status(429, { 'retry-after': '20' }), result('a')],
        [B]: [status(429, { 'retry-after': '2' }), result('b')],
      },
      { endpoints: [A, B], policy: { maxAttempts: 1 } },
    );
    await run(transport.call('getSlot')).catch(() => undefined);
    await run(transport.call('getSlot')).catch(() => undefined);
    expect(await run(transport.call('getSlot'))).toBe('b');
    expect(times(B)).toEqual([0, 2_000]);
    expect(times(A)).toEqual([0]);
  });

  it('counts failures of attempts that were under way together as one', async () => {
    const { transport, run } = setup({ [A]: [status(503)], [B]: [result('b')] }, { endpoints: [A, B] });
    await run(Promise.all([1, 2, 3, 4].map(() => transport.call('getSlot'))));
    expect(health(transport)[0]).toEqual([1, 1_000]);
  });

  it('keeps a bench that an older, slower success would otherwise end', async () => {
    const { transport, run } = setup(
      (time) => ({ [A]: [delayed(time, 100, result('slow a')), status(503)], [B]: [result('b')] }),
      { endpoints: [A, B] },
    );
    const slow = transport.call('getSlot'); // reaches A first and answers 100 ms later
    const fast = transport.call('getSlot'); // meets A's 503 at once and fails over
    expect(await run(Promise.all([slow, fast]))).toEqual(['slow a', 'b']);
    expect(health(transport)[0]).toEqual([1, 900]);
  });
});
