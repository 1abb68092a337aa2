import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { PubSubChainReader, PubSubEvents } from './events.js';
import { createSubscriptionHub, type Sink } from './hub.js';
import { handleMessage } from './protocol.js';

export interface PubSubServerOptions {
  /** Largest message a client may send; default 1 MiB. */
  readonly maxPayloadBytes?: number;
  /**
   * A connection whose unsent notifications pass this many bytes is closed (a client that stopped
   * reading); default 64 MiB.
   */
  readonly maxBufferedBytes?: number;
}

export interface PubSubListenOptions {
  /** Default 8900 (solana-test-validator's RPC port + 1); 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
}

/** The Solana PubSub websocket service: feed it `PubSubEvents`, serve it on a port or an existing server. */
export interface PubSubServer extends PubSubEvents {
  /** Serves on a port of its own; resolves with the `ws://` URL actually bound. */
  listen(options?: PubSubListenOptions): Promise<{ readonly url: string; readonly port: number }>;
  /** Also answers websocket upgrades on an existing HTTP server: the JSON-RPC one, so its own port serves both. */
  attach(server: Server): void;
  readonly connectionCount: number;
  readonly subscriptionCount: number;
  /** Closes every connection and the port it listens on, and detaches from attached servers. */
  close(): Promise<void>;
}

const DEFAULT_PORT = 8900;
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;
const DEFAULT_MAX_BUFFERED = 64 * 1024 * 1024;
/** RFC 6455 §7.4.1: the endpoint is going away / the message is too big to process. */
const GOING_AWAY = 1001;
const MESSAGE_TOO_BIG = 1009;

export function createPubSubServer(
  reader: PubSubChainReader,
  options: PubSubServerOptions = {},
): PubSubServer {
  const maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED;
  const hub = createSubscriptionHub(reader);
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD,
  });
  const attached: Server[] = [];
  let own: Server | undefined;

  wss.on('connection', (ws: WebSocket) => {
    const sink: Sink = {
      send(text) {
        if (ws.readyState !== WebSocket.OPEN) return;
        if (ws.bufferedAmount > maxBuffered) {
          ws.close(MESSAGE_TOO_BIG, 'notifications not read');
          return;
        }
        ws.send(text);
      },
    };
    ws.on('message', (data, isBinary) => {
      const text =
        isBinary || !Buffer.isBuffer(data)
          ? Buffer.from(data as ArrayBuffer).toString('utf8')
          : data.toString('utf8');
      const answer = handleMessage(hub, sink, text);
      if (answer !== undefined) sink.send(answer);
    });
    ws.on('close', () => hub.dropSink(sink));
    // A broken socket closes too; the close handler forgets its subscriptions.
    ws.on('error', () => ws.terminate());
  });

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };

  return {
    onReceived: (signature, slot) => hub.onReceived(signature, slot),
    onTransaction: (transaction) => hub.onTransaction(transaction),
    onSlot: (slot, reached) => hub.onSlot(slot, reached),

    get connectionCount() {
      return wss.clients.size;
    },
    get subscriptionCount() {
      return hub.subscriptionCount;
    },

    attach(server) {
      server.on('upgrade', onUpgrade);
      attached.push(server);
    },

    listen({ port = DEFAULT_PORT, host = '127.0.0.1' } = {}) {
      if (own) return Promise.reject(new Error('the pubsub server is already listening'));
      const server = createServer((_request, response) => {
        response.writeHead(400, { 'content-type': 'text/plain' }).end('websocket upgrade expected\n');
      });
      server.on('upgrade', onUpgrade);
      own = server;
      return new Promise((resolve, reject) => {
        server.once('error', (error) => {
          // A port that could not be bound leaves the service free to listen on another.
          own = undefined;
          reject(error);
        });
        server.listen(port, host, () => {
          server.off('error', reject);
          const bound = (server.address() as AddressInfo).port;
          resolve({ url: `ws://${host.includes(':') ? `[${host}]` : host}:${bound}`, port: bound });
        });
      });
    },

    async close() {
      for (const server of attached.splice(0)) server.off('upgrade', onUpgrade);
      // A close frame first, so clients see a clean going-away, then the sockets go at once:
      // waiting for every client's close handshake would let one dead client hold the shutdown.
      for (const client of wss.clients) {
        client.close(GOING_AWAY, 'server closing');
        client.terminate();
      }
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      const server = own;
      own = undefined;
      if (server) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
