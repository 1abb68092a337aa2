import { describe, expect, it } from 'vitest';
import { B, delayed, type Reply, result, rpcError, setup, status } from './rpc-transport.support.js';

const KEYED = 'https://rpc.example.com/v2/AbCdEf0123456789?api-key=topsecret42';

describe('rpc transport: what the observer sees', () => {
  it('one event per attempt, retries included, with the method, the redacted endpoint, status and timing', async () => {
    const { transport, run, events, times } = setup(
      (time) => ({
        [KEYED]: [delayed(time, 30, status(429, { 'retry-after': '1' })), delayed(time, 45, result(10))],
        [B]: [delayed(time, 20, status(503))],
      }),
      { endpoints: [KEYED, B] },
    );
    expect(await run(transport.call('getBalance', ['key']))).toBe(10);
    expect(events).toEqual([
      {
        method: 'getBalance',
        endpoint: 'https://rpc.example.com/v2/***',
        attempt: 1,
        outcome: 'retry',
        status: 429,
        retryAfterMs: 1_000,
        error: 'HTTP 429 (https://rpc.example.com/v2/***)',
        durationMs: 30,
      },
      {
        method: 'getBalance',
        endpoint: B,
        attempt: 2,
        outcome: 'retry',
        status: 503,
        error: `HTTP 503 (${B})`,
        durationMs: 20,
      },
      // Both benched: the first endpoint's ends first, once its Retry-After is over.
      {
        method: 'getBalance',
        endpoint: 'https://rpc.example.com/v2/***',
        attempt: 3,
        outcome: 'ok',
        status: 200,
        durationMs: 45,
      },
    ]);
    expect(times(KEYED)).toEqual([0, 1_030]);
  });

  it('reports a request that gave up as failed, and a JSON-RPC error answer as ok with its code', async () => {
    const { transport, failure, events } = setup(
      { [B]: [rpcError(-32602, 'Invalid params')] },
      { endpoints: [B], policy: { maxAttempts: 1 } },
    );
    await failure(transport.call('getBalance', ['nope']));
    expect(events.at(-1)).toMatchObject({ outcome: 'ok', errorCode: -32602, status: 200 });
    const down = setup({}, { endpoints: [B], policy: { maxAttempts: 1 } });
    await down.failure(down.transport.call('getSlot'));
    expect(down.events).toEqual([
      expect.objectContaining({ outcome: 'failed', error: `fetch failed: ECONNREFUSED (${B})` }),
    ]);
  });

  it('counts every call of a batch, which travels as one HTTP request', async () => {
    const { transport, run, events, server } = setup({ [B]: [status(503), result(1)] }, { endpoints: [B] });
    const batch = JSON.stringify(
      ['getSlot', 'getBalance', 'getSlot'].map((method, id) => ({ jsonrpc: '2.0', id, method, params: [] })),
    );
    const response = await run(transport.fetch(B, { method: 'POST', body: batch }));
    expect(await response.json()).toEqual([0, 1, 2].map((id) => ({ jsonrpc: '2.0', id, result: 1 })));
    expect(server.seen).toHaveLength(2);
    expect(events.map((event) => [event.method, event.attempt, event.outcome, event.batchSize])).toEqual([
      ['getSlot', 1, 'retry', 3],
      ['getBalance', 1, 'retry', 3],
      ['getSlot', 1, 'retry', 3],
      ['getSlot', 2, 'ok', 3],
      ['getBalance', 2, 'ok', 3],
      ['getSlot', 2, 'ok', 3],
    ]);
  });

  it('retries a batch in which one call met a node that is behind', async () => {
    let answered = 0;
    const mixed: Reply = (request) => {
      answered += 1;
      return Response.json([
        { jsonrpc: '2.0', id: request[0].id, result: 1 },
        answered === 1
          ? { jsonrpc: '2.0', id: request[1].id, error: { code: -32005, message: 'Node is unhealthy' } }
          : { jsonrpc: '2.0', id: request[1].id, result: 2 },
      ]);
    };
    const { transport, run, events } = setup({ [B]: [mixed] }, { endpoints: [B] });
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 'x', method: 'getSlot' },
      { jsonrpc: '2.0', id: 'y', method: 'getBlockHeight' },
    ]);
    const response = await run(transport.fetch(B, { method: 'POST', body: batch }));
    expect(await response.json()).toEqual([
      { jsonrpc: '2.0', id: 'x', result: 1 },
      { jsonrpc: '2.0', id: 'y', result: 2 },
    ]);
    expect(events[0]?.error).toBe('JSON-RPC error -32005: Node is unhealthy');
  });

  it('never shows a raw endpoint URL: events, errors and messages carry the redacted form', async () => {
    const leaky: Reply = () => {
      throw new TypeError(`request to ${KEYED} failed, reason: socket hang up`);
    };
    const { transport, failure, events } = setup({ [KEYED]: [leaky] }, { endpoints: [KEYED] });
    const error = await failure(transport.call('getSlot'));
    const shown = JSON.stringify({ events, message: error.message, error, endpoints: transport.endpoints });
    expect(shown).not.toMatch(/AbCdEf0123456789|topsecret42|api-key/);
    expect(error.message).toContain(
      'request to https://rpc.example.com/v2/*** failed, reason: socket hang up',
    );
    expect(JSON.stringify(transport.health())).not.toMatch(/AbCdEf|topsecret/);
  });

  it('answers the same when the observer throws', async () => {
    const { transport, run } = setup(
      { [B]: [status(503), result(3)] },
      {
        endpoints: [B],
        observer: {
          onAttempt: () => {
            throw new Error('metrics client broken');
          },
        },
      },
    );
    expect(await run(transport.call('getSlot'))).toBe(3);
  });
});
