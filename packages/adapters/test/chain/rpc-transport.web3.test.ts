import { Connection } from '@solana/web3.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RpcHttpError, RpcRetriesExhaustedError } from '../../src/chain/rpc/transport/index.js';
import { A, methods, result, S1, setup, status } from './rpc-transport.support.js';

const BLOCKHASH = 'EETubP5AKHgjPAhzPAFcb8BAY1hMH639CWCFTqi3hq1k';

/** A fake JSON-RPC server answering what these tests ask of it. */
const chain = methods({
  getBlockHeight: () => 1_234,
  getLatestBlockhash: () => ({
    context: { slot: 1_300 },
    value: { blockhash: BLOCKHASH, lastValidBlockHeight: 1_384 },
  }),
});

/** Everything written to the console or the process's streams while a test runs. */
let written: unknown[][];

beforeEach(() => {
  written = [];
  const capture = (...args: unknown[]) => {
    written.push(args);
  };
  for (const method of ['error', 'warn', 'log', 'info', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation(capture);
  }
  vi.spyOn(process.stderr, 'write').mockImplementation((...args: unknown[]) => {
    capture(...args);
    return true;
  });
  vi.spyOn(process.stdout, 'write').mockImplementation((...args: unknown[]) => {
    capture(...args);
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

const connect = (transport: ReturnType<typeof setup>['transport']) =>
  new Connection(transport.connectionUrl, { ...transport.connectionOptions, commitment: 'confirmed' });

describe('rpc transport under @solana/web3.js v1 Connection', () => {
  it('carries getBlockHeight and getLatestBlockhash through a 429, honouring Retry-After, printing nothing', async () => {
    const { transport, run, times, events } = setup({
      [A]: [status(429, { 'retry-after': '1' }), chain, status(429, { 'retry-after': '2' }), chain],
    });
    const connection = connect(transport);
    expect(await run(connection.getBlockHeight())).toBe(1_234);
    expect(await run(connection.getLatestBlockhash())).toEqual({
      blockhash: BLOCKHASH,
      lastValidBlockHeight: 1_384,
    });
    expect(times(A)).toEqual([0, 1_000, 1_000, 3_000]);
    expect(events.map((event) => [event.method, event.outcome])).toEqual([
      ['getBlockHeight', 'retry'],
      ['getBlockHeight', 'ok'],
      ['getLatestBlockhash', 'retry'],
      ['getLatestBlockhash', 'ok'],
    ]);
    expect(written).toEqual([]);
  });

  it("hands the transport's typed error to the caller when it gives up", async () => {
    const { transport, failure } = setup({ [A]: [status(503)] }, { policy: { deadlineMs: 1_000 } });
    const error = await failure(connect(transport).getBlockHeight());
    expect(error).toBeInstanceOf(RpcRetriesExhaustedError);
    expect((error as RpcRetriesExhaustedError).lastFailure).toMatchObject({ status: 503 });
    expect(written).toEqual([]);
  });

  it('sends a raw transaction once, copied to the send endpoints, even on a 429', async () => {
    const { transport, failure, run, server } = setup(
      { [A]: [status(429, { 'retry-after': '1' }), result('sig-a')], [S1]: [status(503), result('sig-s1')] },
      { sendEndpoints: [S1] },
    );
    const connection = connect(transport);
    const wire = Uint8Array.from([1, 2, 3]);
    const error = await failure(connection.sendRawTransaction(wire, { skipPreflight: true, maxRetries: 0 }));
    expect(error).toBeInstanceOf(RpcHttpError);
    expect(server.seen.map((request) => [request.url, request.methods[0]])).toEqual([
      [S1, 'sendTransaction'],
      [A, 'sendTransaction'],
    ]);
    // The rebroadcast, later, is answered.
    expect(await run(connection.sendRawTransaction(wire, { skipPreflight: true, maxRetries: 0 }))).toBe(
      'sig-a',
    );
    expect(written).toEqual([]);
  });

  it('keeps the headers web3.js sends', async () => {
    const { transport, run, server } = setup({ [A]: [chain] });
    await run(connect(transport).getBlockHeight());
    expect(server.seen[0]?.headers.get('content-type')).toBe('application/json');
    expect(server.seen[0]?.headers.get('solana-client')).toMatch(/^js\//);
  });
});
