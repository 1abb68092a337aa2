import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createFakeChain,
  type FakeChain,
  randomAddress,
  randomSignature,
} from '../../test/support/fake-chain.js';
import { openSocket, type TestSocket } from '../../test/support/ws-client.js';
import { createPubSubServer, type PubSubServer } from './server.js';

let server: PubSubServer;
let chain: FakeChain;
let url: string;
const sockets: TestSocket[] = [];

async function connect(to = url) {
  const socket = await openSocket(to);
  sockets.push(socket);
  return socket;
}

beforeEach(async () => {
  server = createPubSubServer({ getAccount: (address, commitment) => chain.getAccount(address, commitment) });
  chain = createFakeChain(() => server);
  ({ url } = await server.listen({ port: 0 }));
});

afterEach(async () => {
  for (const socket of sockets.splice(0)) await socket.close();
  await server.close();
});

describe('JSON-RPC over the websocket (agave rpc_pubsub)', () => {
  it('answers subscribe with the subscription id and unsubscribe with true', async () => {
    const socket = await connect();
    expect(await socket.request('slotSubscribe')).toEqual({ jsonrpc: '2.0', result: 0, id: 1 });
    expect(
      await socket.request('signatureSubscribe', [randomSignature(), { commitment: 'confirmed' }]),
    ).toEqual({
      jsonrpc: '2.0',
      result: 1,
      id: 2,
    });
    expect(await socket.request('slotUnsubscribe', [0])).toEqual({ jsonrpc: '2.0', result: true, id: 3 });
    expect(await socket.request('slotUnsubscribe', [0])).toEqual({
      jsonrpc: '2.0',
      error: { code: -32602, message: 'Invalid subscription id.' },
      id: 4,
    });
    expect(server.subscriptionCount).toBe(1);
  });

  it('answers bad requests with the standard codes and agave messages', async () => {
    const socket = await connect();
    expect(await socket.request('accountSubscribe', ['not-a-key'])).toMatchObject({
      error: { code: -32602, message: 'Invalid Request: Invalid pubkey provided' },
    });
    expect(
      await socket.request('logsSubscribe', [{ mentions: [randomAddress(), randomAddress()] }]),
    ).toMatchObject({
      error: { code: -32602, message: 'Invalid Request: Only 1 address supported' },
    });
    expect(
      await socket.request('programSubscribe', [
        randomAddress(),
        { filters: [{ memcmp: { offset: 0, bytes: 'I' } }] },
      ]),
    ).toMatchObject({
      error: { code: -32602, message: 'Invalid param: Base58DecodeError' },
    });
    expect(await socket.request('blockSubscribe', ['all'])).toMatchObject({
      error: { code: -32601, message: 'Method not found' },
    });
    expect(await socket.request('accountSubscribe', [randomAddress(), { commitment: 'soon' }])).toMatchObject(
      { error: { code: -32602 } },
    );
    socket.sendRaw('{not json');
    socket.sendRaw('[]');
    // A message without an id (web3.js's keep-alive `ping`) gets no answer at all.
    socket.sendRaw('{"jsonrpc":"2.0","method":"ping","params":null}');
    socket.sendRaw('[{"jsonrpc":"2.0","id":7,"method":"slotSubscribe"},{"jsonrpc":"2.0","method":"ping"}]');
    await socket.waitFor(() => socket.messages.length >= 8);
    expect(socket.messages.slice(5)).toEqual([
      { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null },
      { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null },
      [{ jsonrpc: '2.0', result: 0, id: 7 }],
    ]);
  });

  it('delivers notifications to the connection that subscribed, and drops its subscriptions when it closes', async () => {
    const a = await connect();
    const b = await connect();
    const address = randomAddress();
    await a.request('accountSubscribe', [address, { encoding: 'base64', commitment: 'processed' }]);
    await b.request('slotSubscribe');
    chain.land(
      new Map([
        [address, { lamports: 7n, owner: randomAddress(), data: new Uint8Array(0), executable: false }],
      ]),
    );
    chain.tick();
    await a.waitFor(() => a.notifications.length === 1);
    await b.waitFor(() => b.notifications.length === 1);
    expect(a.notifications[0]).toMatchObject({
      method: 'accountNotification',
      params: { subscription: 0, result: { value: { lamports: 7 } } },
    });
    expect(b.notifications[0]).toMatchObject({ method: 'slotNotification', params: { subscription: 1 } });
    await a.close();
    await b.waitFor(() => server.subscriptionCount === 1);
    expect(server.connectionCount).toBe(1);
  });
});

describe('serving', () => {
  let http: Server;

  afterEach(async () => {
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  it('answers upgrades on an existing HTTP server, which keeps serving plain requests', async () => {
    http = createServer((_request, response) => response.end('rpc'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
    server.attach(http);
    const port = (http.address() as AddressInfo).port;
    const socket = await connect(`ws://127.0.0.1:${port}`);
    expect(await socket.request('rootSubscribe')).toEqual({ jsonrpc: '2.0', result: 0, id: 1 });
    chain.tick();
    await socket.waitFor(() => socket.notifications.length === 1);
    expect(socket.notifications[0]).toMatchObject({
      method: 'rootNotification',
      params: { subscription: 0 },
    });
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('rpc');
    await socket.close();
    await server.close();
    // Detached: the HTTP server no longer upgrades.
    await expect(openSocket(`ws://127.0.0.1:${port}`)).rejects.toThrow();
  });

  it('refuses a second listen and answers plain HTTP on its own port with 400', async () => {
    http = createServer();
    await expect(server.listen({ port: 0 })).rejects.toThrow('already listening');
    const response = await fetch(url.replace('ws://', 'http://'));
    expect(response.status).toBe(400);
  });
});
