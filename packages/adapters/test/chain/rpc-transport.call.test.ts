import { describe, expect, it } from 'vitest';
import { createRpcTransport, RpcBadResponseError } from '../../src/chain/rpc/transport/index.js';
import { A, type Reply, result, setup } from './rpc-transport.support.js';

describe('rpc transport: bare calls', () => {
  it('posts a JSON-RPC 2.0 request and resolves with its result', async () => {
    const { transport, run, server } = setup({ [A]: [result({ value: 5 })] });
    expect(await run(transport.call('getBalance', ['key', { commitment: 'confirmed' }]))).toEqual({
      value: 5,
    });
    expect(await run(transport.call('getSlot'))).toEqual({ value: 5 });
    expect(server.seen.map((request) => request.body)).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'getBalance', params: ['key', { commitment: 'confirmed' }] },
      { jsonrpc: '2.0', id: 2, method: 'getSlot', params: [] },
    ]);
  });

  it('lets the caller rewrite the text before parsing, to keep a u64 exact', async () => {
    const exact: Reply = (request) =>
      new Response(
        `{"jsonrpc":"2.0","id":${request.id},"result":{"context":{"slot":1},"value":18446744073709551615}}`,
      );
    const { transport, run } = setup({ [A]: [exact] });
    const balance = await run(
      transport.call<{ value: string }>('getBalance', ['key'], {
        transformText: (text) => text.replace(/"value":(\d+)/, '"value":"$1"'),
      }),
    );
    expect(balance.value).toBe('18446744073709551615');
  });

  it('reports a 2xx that is not JSON-RPC (a proxy page) without retrying it', async () => {
    const page: Reply = () => new Response('<html>gateway says hello</html>', { status: 200 });
    const { transport, failure, server } = setup({ [A]: [page] });
    const error = await failure(transport.call('getSlot'));
    expect(error).toBeInstanceOf(RpcBadResponseError);
    expect(error.message).toMatch(/not a JSON-RPC answer .*<html>gateway says hello/);
    expect(server.seen).toHaveLength(1);
  });

  it('turns web3.js its own 429 retries off, and takes only POST bodies', async () => {
    const { transport, run } = setup({ [A]: [result(1)] });
    expect(transport.connectionOptions).toEqual({ fetch: transport.fetch, disableRetryOnRateLimit: true });
    expect(transport.connectionUrl).toBe(A);
    await expect(run(transport.fetch(A, { method: 'GET' }))).rejects.toThrow(/POST/);
  });

  it('refuses a configuration without endpoints or with one that is not http(s)', () => {
    expect(() => createRpcTransport({ endpoints: [] })).toThrow(/at least one endpoint/);
    expect(() => createRpcTransport({ endpoints: ['wss://a.example'] })).toThrow(/http\(s\)/);
    expect(() => createRpcTransport({ endpoints: [A], sendEndpoints: ['nope'] })).toThrow(/sendEndpoints/);
    // The message names the setting, never the value (which may hold a key).
    expect(() => createRpcTransport({ endpoints: ['https://x.example/?api-key=secret', 'ftp://y'] })).toThrow(
      /^rpc transport: endpoints must be http\(s\) URLs$/,
    );
  });
});
