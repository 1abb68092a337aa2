import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { SecuredResponse } from '../../src/http/secured-response.js';

export interface NodeServed {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Serves `fetch` (an app's) over HTTP the way the Node entry does: @hono/node-server's listener
 * on a server whose responses are `SecuredResponse`. What the app sets on Node's response instead
 * of its own (request id, rate-limit headers, `Vary`) is then on the wire, where a header set
 * twice, or not at all, shows.
 */
export async function serveOverNode(
  fetch: (request: Request) => Response | Promise<Response>,
): Promise<NodeServed> {
  const server = createServer({ ServerResponse: SecuredResponse }, getRequestListener(fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
