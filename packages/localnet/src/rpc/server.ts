import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Localnet } from '../localnet.js';
import { createPubSubServer, type PubSubServer } from '../pubsub/server.js';
import { toJson } from './encoding.js';
import { INTERNAL_ERROR, PARSE_ERROR, RpcError } from './errors.js';
import { errorResponse, handleJsonRpc } from './json-rpc.js';
import { localnetMethods } from './methods/index.js';

export interface LocalnetRpcOptions {
  /** Default 8899; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Largest request body accepted; default 1 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * Port of the PubSub websocket. Default: the RPC port + 1, as solana-test-validator serves it and
   * as web3.js derives it from the RPC URL (with `port: 0`, a free pair of neighbouring ports).
   * 0 picks any free port; `false` serves the websocket on the RPC port alone (it always answers
   * websocket upgrades there too).
   */
  readonly wsPort?: number | false;
}

export interface LocalnetRpc {
  /** The URL the endpoint answers on, with the port actually bound. */
  readonly url: string;
  readonly port: number;
  /** The PubSub websocket: on its own port when it has one, else on the RPC port. */
  readonly wsUrl: string;
  /** The PubSub service (connection and subscription counts). */
  readonly pubsub: PubSubServer;
  close(): Promise<void>;
}

/** Attempts at a free pair of neighbouring ports before settling for any two free ports. */
const PORT_PAIR_ATTEMPTS = 20;

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'content-type, solana-client',
  'access-control-max-age': '86400',
};

function send(res: ServerResponse, status: number, body: string, contentType = 'application/json') {
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    ...CORS_HEADERS,
  });
  res.end(body);
}

/**
 * Solana's JSON-RPC 2.0 over HTTP POST for the localnet (GET /health answers "ok"): the subset that
 * `@solana/web3.js`, wallets and the `rpc` chain adapter use, with the real response shapes and
 * error codes. Every method answers from the localnet's own query API.
 */
export async function startLocalnetRpc(
  localnet: Localnet,
  options: LocalnetRpcOptions = {},
): Promise<LocalnetRpc> {
  const host = options.host ?? '127.0.0.1';
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const methods = localnetMethods(localnet);

  const onBody = (res: ServerResponse, text: string) => {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      send(res, 200, toJson(errorResponse(null, new RpcError(PARSE_ERROR, 'Parse error'))));
      return;
    }
    handleJsonRpc(methods, body).then(
      (response) => {
        if (response === undefined) {
          res.writeHead(204, CORS_HEADERS);
          res.end();
        } else {
          send(res, 200, toJson(response));
        }
      },
      () => send(res, 200, toJson(errorResponse(null, new RpcError(INTERNAL_ERROR, 'Internal error')))),
    );
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS_HEADERS);
      res.end();
      return;
    }
    if (req.method === 'GET') {
      if ((req.url ?? '/').split('?')[0] === '/health') send(res, 200, 'ok', 'text/plain');
      else send(res, 404, 'Not Found', 'text/plain');
      return;
    }
    if (req.method !== 'POST') {
      send(res, 405, 'Used HTTP Method is not allowed. POST or OPTIONS is required', 'text/plain');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        tooLarge = true;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) send(res, 413, 'Payload Too Large', 'text/plain');
      else onBody(res, Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', () => res.destroy());
  };

  const server = createServer({ keepAliveTimeout: 65_000 }, onRequest);
  const pubsub = createPubSubServer({ getAccount: (address) => localnet.account(address) ?? undefined });
  pubsub.attach(server);
  let wsUrl: string;
  try {
    wsUrl = await bindBoth(server, pubsub, host, options.port ?? 8899, options.wsPort);
  } catch (error) {
    await pubsub.close();
    await closeServer(server);
    throw error;
  }
  const unlisten = localnet.listen({
    onTransaction: (transaction) => pubsub.onTransaction(transaction),
    onSlot: (slot, reached) => pubsub.onSlot(slot, reached),
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${hostInUrl(host)}:${port}`,
    port,
    wsUrl,
    pubsub,
    close: async () => {
      unlisten();
      await pubsub.close();
      await closeServer(server);
    },
  };
}

const hostInUrl = (host: string) => (host.includes(':') ? `[${host}]` : host);

function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

const inUse = (error: unknown) => (error as NodeJS.ErrnoException).code === 'EADDRINUSE';

/** Binds the RPC port and the websocket's; resolves with the websocket URL. */
async function bindBoth(
  server: Server,
  pubsub: PubSubServer,
  host: string,
  port: number,
  wsPort: number | false | undefined,
): Promise<string> {
  const boundPort = () => (server.address() as AddressInfo).port;
  if (wsPort === false) {
    await listenOn(server, port, host);
    return `ws://${hostInUrl(host)}:${boundPort()}`;
  }
  if (port === 0 && wsPort === undefined) {
    // A free port whose neighbour is free too, so clients that derive the websocket find it.
    for (let attempt = 0; attempt < PORT_PAIR_ATTEMPTS; attempt++) {
      await listenOn(server, 0, host);
      const next = boundPort() + 1;
      if (next <= 65_535) {
        try {
          return (await pubsub.listen({ port: next, host })).url;
        } catch (error) {
          if (!inUse(error)) throw error;
        }
      }
      await closeServer(server);
    }
    await listenOn(server, 0, host);
    return (await pubsub.listen({ port: 0, host })).url;
  }
  await listenOn(server, port, host);
  try {
    return (await pubsub.listen({ port: wsPort ?? boundPort() + 1, host })).url;
  } catch (error) {
    await closeServer(server);
    throw error;
  }
}
