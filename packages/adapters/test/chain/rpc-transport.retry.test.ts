import { describe, expect, it } from 'vitest';
import {
  JsonRpcResponseError,
  RpcHttpError,
  RpcNetworkError,
  RpcRetriesExhaustedError,
} from '../../src/chain/rpc/transport/index.js';
import { A, body, post, result, rpcError, START, setup, status } from './rpc-transport.support.js';

describe('rpc transport: reads are retried', () => {
  it('honours Retry-After given in seconds', async () => {
    const { transport, run, times } = setup({ [A]: [status(429, { 'retry-after': '3' }), result(42)] });
    expect(await run(transport.call('getSlot'))).toBe(42);
    expect(times(A)).toEqual([0, 3_000]);
  });

  it('honours Retry-After given as an HTTP-date', async () => {
    const at = new Date(START + 5_000).toUTCString();
    expect(at).toBe('Sun, 01 Jun 2025 12:00:05 GMT');
    const { transport, run, times } = setup({ [A]: [status(503, { 'retry-after': at }), result(7)] });
    expect(await run(transport.call('getSlot'))).toBe(7);
    expect(times(A)).toEqual([0, 5_000]);
  });

  it('retries 5xx, 429 and network errors with exponential backoff and full jitter', async () => {
    const { transport, run, times } = setup(
      { [A]: [status(503), 'network', status(429), status(502), result('done')] },
      { random: () => 0.999_999 },
    );
    expect(await run(transport.call('getLatestBlockhash'))).toBe('done');
    // Waits just under each ceiling: 200, 400, 800, 1,600 ms.
    expect(times(A)).toEqual([0, 199, 598, 1_397, 2_996]);
  });

  it('retries a node that says it is behind (-32005) and passes any other JSON-RPC error on at once', async () => {
    const behind = setup({
      [A]: [rpcError(-32005, 'Node is behind by 40 slots', { numSlotsBehind: 40 }), result(5)],
    });
    expect(await behind.run(behind.transport.call('getBalance', ['key']))).toBe(5);
    expect(behind.times(A)).toEqual([0, 100]);

    const invalid = setup({ [A]: [rpcError(-32602, 'Invalid param: WrongSize', { at: 0 }), result(5)] });
    const error = await invalid.failure(invalid.transport.call('getBalance', ['key']));
    expect(error).toBeInstanceOf(JsonRpcResponseError);
    expect(error).toMatchObject({ code: -32602, rpcMessage: 'Invalid param: WrongSize', data: { at: 0 } });
    expect((error as JsonRpcResponseError).transient).toBe(false);
    expect(invalid.times(A)).toEqual([0]);
  });

  it('passes on an HTTP status the endpoint chose (401) without retrying it, keeping the status', async () => {
    const { transport, run, failure, times } = setup({ [A]: [status(401)] });
    const error = await failure(transport.call('getSlot'));
    expect(error).toBeInstanceOf(RpcHttpError);
    expect(error).toMatchObject({ status: 401, transient: false });
    // Through `fetch` the same status is the answer, as a plain fetch would give it.
    const response = await run(transport.fetch(A, post(body('getSlot'))));
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('status 401');
    expect(times(A)).toEqual([0, 0]);
  });

  it('starts no attempt that could not finish before the deadline, and says the deadline passed', async () => {
    const { time, transport, failure, times } = setup(
      { [A]: [status(503, { 'x-note': 'overloaded' })] },
      { random: () => 0.999_999, policy: { deadlineMs: 1_500 } },
    );
    const error = await failure(transport.call('getSlot'));
    // 0, 199, 598; the next would start at 1,397, leaving less than the 250 ms an attempt needs.
    expect(times(A)).toEqual([0, 199, 598]);
    expect(error).toBeInstanceOf(RpcRetriesExhaustedError);
    const gaveUp = error as RpcRetriesExhaustedError;
    expect(gaveUp).toMatchObject({ reason: 'deadline', attempts: 3, deadlineMs: 1_500, transient: true });
    expect(gaveUp.message).toMatch(
      /^getSlot: deadline of 1500 ms passed .* after 3 attempts; last failure: HTTP 503/,
    );
    expect(gaveUp.lastFailure).toBeInstanceOf(RpcHttpError);
    expect(gaveUp.cause).toBe(gaveUp.lastFailure);
    expect(time.now - START).toBe(598);
    expect(time.pending()).toBe(0);
  });

  it('fails at once when Retry-After lies past the deadline, rather than sleeping into it', async () => {
    const { time, transport, failure, times } = setup({
      [A]: [status(429, { 'retry-after': '60' }), result(1)],
    });
    const error = (await failure(transport.call('getSlot'))) as RpcRetriesExhaustedError;
    expect(error.reason).toBe('deadline');
    expect(error.retryAfterMs).toBe(60_000);
    expect(times(A)).toEqual([0]);
    expect(time.now - START).toBe(0);
  });

  it('cuts a hung attempt at its timeout, and the next attempt follows', async () => {
    const { transport, run, events, times } = setup(
      { [A]: ['hang', result(9)] },
      { policy: { attemptTimeoutMs: 1_000 } },
    );
    expect(await run(transport.call('getSlot'))).toBe(9);
    expect(times(A)).toEqual([0, 1_100]);
    expect(events[0]).toMatchObject({
      outcome: 'retry',
      error: expect.stringMatching(/timed out after 1000 ms/),
    });
  });

  it('never lets an attempt run past the deadline', async () => {
    const { time, transport, failure } = setup(
      { [A]: ['hang'] },
      { policy: { deadlineMs: 3_000, attemptTimeoutMs: 5_000 } },
    );
    const error = (await failure(transport.call('getSlot'))) as RpcRetriesExhaustedError;
    expect(error.reason).toBe('deadline');
    expect(error.lastFailure).toBeInstanceOf(RpcNetworkError);
    expect((error.lastFailure as RpcNetworkError).timedOut).toBe(true);
    expect(time.now - START).toBe(3_000);
  });

  it('gives up after maxAttempts and says so', async () => {
    const { transport, failure, times } = setup({ [A]: [status(500)] }, { policy: { maxAttempts: 2 } });
    const error = (await failure(transport.call('getSlot'))) as RpcRetriesExhaustedError;
    expect(error).toMatchObject({ reason: 'attempts', attempts: 2 });
    expect(error.message).toMatch(/no answer after 2 attempts, the most allowed; last failure: HTTP 500/);
    expect(times(A)).toEqual([0, 100]);
  });

  it("stops waiting when the caller's signal aborts", async () => {
    const { transport, failure, times } = setup({ [A]: [status(503), result(1)] });
    const controller = new AbortController();
    const pending = transport.call('getSlot', [], { signal: controller.signal });
    await Promise.resolve();
    controller.abort(new Error('client went away'));
    expect((await failure(pending)).message).toBe('client went away');
    expect(times(A)).toEqual([0]);
  });

  it('takes a shorter deadline per call', async () => {
    const { transport, failure, times } = setup({ [A]: [status(503)] }, { random: () => 0.999_999 });
    const error = (await failure(
      transport.call('getSlot', [], { deadlineMs: 500 }),
    )) as RpcRetriesExhaustedError;
    expect(error).toMatchObject({ reason: 'deadline', deadlineMs: 500 });
    expect(times(A)).toEqual([0, 199]);
  });
});
