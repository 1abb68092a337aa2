import { describe, expect, it } from 'vitest';
import { RpcHttpError, RpcNetworkError } from '../../src/chain/rpc/transport/index.js';
import { A, B, body, delayed, type Reply, result, S1, S2, setup, status } from './rpc-transport.support.js';

const TX = ['AQID', { encoding: 'base64', skipPreflight: true, maxRetries: 0 }];

describe('rpc transport: what changes state goes out once', () => {
  it.each<[string, Reply, unknown]>([
    ['503', status(503), RpcHttpError],
    ['429 with Retry-After', status(429, { 'retry-after': '1' }), RpcHttpError],
    ['a network error', 'network', RpcNetworkError],
  ])('sendTransaction is not retried on %s: one attempt on each endpoint', async (_, reply, type) => {
    const { transport, failure, server, events } = setup(
      { [A]: [reply, result('sig')], [B]: [result('sig')], [S1]: [reply, result('sig')] },
      { endpoints: [A, B], sendEndpoints: [S1] },
    );
    const error = await failure(transport.call('sendTransaction', TX));
    expect(error).toBeInstanceOf(type);
    expect(server.seen.map((request) => request.url)).toEqual([S1, A]);
    expect(events.map((event) => [event.endpoint, event.outcome, event.copy ?? false])).toEqual([
      ['https://send-1.example/tx', 'failed', true],
      ['https://a.example/rpc', 'failed', false],
    ]);
  });

  it.each(['requestAirdrop', 'localnet_mintTo', 'someNewMethod'])(
    '%s goes once, to the preferred endpoint only (a copy could mint twice)',
    async (method) => {
      const { transport, failure, server } = setup(
        { [A]: [status(503), result('sig')], [S1]: [result('sig')] },
        { sendEndpoints: [S1] },
      );
      expect(await failure(transport.call(method, ['x', 1]))).toBeInstanceOf(RpcHttpError);
      expect(server.seen.map((request) => request.url)).toEqual([A]);
    },
  );

  it('copies every send to every send endpoint at once; the answer is the primary one', async () => {
    const { time, transport, run, times, events } = setup(
      { [A]: [result('sig-a')], [S1]: [result('sig-s1')], [S2]: ['hang'] },
      { sendEndpoints: [S1, S2] },
    );
    expect(await run(transport.call('sendTransaction', TX))).toBe('sig-a');
    expect([times(A), times(S1), times(S2)]).toEqual([[0], [0], [0]]);
    expect(events.filter((event) => event.copy).map((event) => event.endpoint)).toEqual([
      'https://send-1.example/tx',
    ]);
    // The hung copy ends on its own at its attempt timeout, leaving no timer behind.
    await run(time.sleep(5_000));
    expect(events.filter((event) => event.copy).map((event) => [event.endpoint, event.outcome])).toEqual([
      ['https://send-1.example/tx', 'ok'],
      ['https://send-2.example/tx', 'failed'],
    ]);
    expect(time.pending()).toBe(0);
  });

  it('answers with the first copy that succeeded when the primary fails, and benches the primary', async () => {
    const { transport, run, times } = setup(
      { [A]: [status(503)], [B]: [result('sig-b')], [S1]: [status(503)], [S2]: [result('sig-s2')] },
      { endpoints: [A, B], sendEndpoints: [S1, S2] },
    );
    expect(await run(transport.call('sendTransaction', TX))).toBe('sig-s2');
    // The next send (a rebroadcast) goes to the next healthy endpoint.
    expect(await run(transport.call('sendTransaction', TX))).toBe('sig-b');
    expect([times(A), times(B)]).toEqual([[0], [0]]);
  });

  it('passes on a rejection the primary answered with, not a copy that accepted', async () => {
    const rejected: Reply = (request) =>
      Response.json({
        jsonrpc: '2.0',
        id: request.id,
        error: { code: -32002, message: 'Blockhash not found' },
      });
    const { transport, run } = setup({ [A]: [rejected], [S1]: [result('sig')] }, { sendEndpoints: [S1] });
    const response = await run(transport.fetch(A, { method: 'POST', body: body('sendTransaction', TX) }));
    expect((await response.json()).error.message).toBe('Blockhash not found');
  });

  it('lets the copies finish when the caller stops waiting', async () => {
    const { time, transport, run, failure, events } = setup(
      (clock) => ({ [A]: ['hang'], [S1]: [delayed(clock, 100, result('sig-s1'))] }),
      { sendEndpoints: [S1] },
    );
    const controller = new AbortController();
    const sending = transport.call('sendTransaction', TX, { signal: controller.signal });
    controller.abort(new Error('client went away'));
    expect((await failure(sending)).message).toBe('client went away');
    await run(time.sleep(1_000));
    expect(events.map((event) => [event.endpoint, event.outcome, event.copy ?? false])).toEqual([
      ['https://send-1.example/tx', 'ok', true],
    ]);
  });

  it('sends once to an endpoint that is both the primary and a send endpoint', async () => {
    const { transport, run, times } = setup({ [A]: [result('sig')] }, { sendEndpoints: [A, S1] });
    await run(transport.call('sendTransaction', TX));
    expect(times(A)).toEqual([0]);
  });

  it('sends a batch that mixes a send with a read once, without copies', async () => {
    const { transport, run, server } = setup(
      { [A]: [status(503), result('x')], [S1]: [result('x')] },
      { sendEndpoints: [S1] },
    );
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: TX },
      { jsonrpc: '2.0', id: 2, method: 'getSlot', params: [] },
    ]);
    await run(transport.fetch(A, { method: 'POST', body: batch })).catch(() => undefined);
    expect(server.seen.map((request) => request.url)).toEqual([A]);
  });
});
