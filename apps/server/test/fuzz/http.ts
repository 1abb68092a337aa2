import http from 'node:http';
import net from 'node:net';

/**
 * A raw HTTP client for the fuzz suite. `fetch` normalises what we want to send verbatim (it
 * resolves `..` and `%2e%2e`, refuses some methods and headers), so requests go through
 * `node:http`, which writes the method, path and headers as given, over keep-alive sockets.
 */
export interface FuzzRequest {
  readonly method: string;
  /** Sent verbatim as the request target: may hold `..`, `%zz`, `//`, a query string. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array | string;
  /** Send the body with `Transfer-Encoding: chunked` instead of a Content-Length. */
  readonly chunked?: boolean;
}

export interface FuzzResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
  readonly ms: number;
}

export interface Transport {
  send(req: FuzzRequest): Promise<FuzzResponse>;
  /** Requests sent so far (the suite's budget is counted here). */
  readonly sent: number;
  /** Requests retried on a fresh connection because their keep-alive socket was reset before any answer. */
  readonly resets: number;
  /** The slowest request so far and how long it took. */
  readonly slowest: { ms: number; req?: FuzzRequest };
  close(): void;
}

export function createTransport(baseUrl: string, maxSockets = 8): Transport {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  let sent = 0;
  let resets = 0;
  const slowest: { ms: number; req?: FuzzRequest } = { ms: 0 };
  const transport: Transport = {
    get sent() {
      return sent;
    },
    get resets() {
      return resets;
    },
    slowest,
    send(req) {
      sent++;
      return once(req, agent).catch((error: NodeJS.ErrnoException) => {
        // A keep-alive socket the server has closed is reset when the client reuses it (Node's
        // documentation says to retry such requests). The retry goes over a fresh connection, so a
        // server that really drops a request is still reported.
        if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
        resets++;
        return once(req, false);
      });
    },
    close() {
      agent.destroy();
    },
  };
  return transport;

  function once(req: FuzzRequest, via: http.Agent | false): Promise<FuzzResponse> {
    const started = performance.now();
    return new Promise<FuzzResponse>((resolve, reject) => {
      let settled = false;
      const headers: Record<string, string> = { ...req.headers };
      if (req.body !== undefined && !req.chunked) {
        headers['content-length'] = String(Buffer.byteLength(req.body));
      }
      // node:http frames a body without Content-Length as chunked only for POST/PUT/PATCH by
      // default; for GET, DELETE, OPTIONS it would write the bytes unframed. Say it explicitly.
      if (req.body !== undefined && req.chunked) headers['transfer-encoding'] = 'chunked';
      let outgoing: http.ClientRequest;
      try {
        outgoing = http.request(
          { host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent: via },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('error', (e) => {
              if (!settled) reject(e);
              settled = true;
            });
            res.on('end', () => {
              const ms = performance.now() - started;
              if (ms > slowest.ms) {
                slowest.ms = ms;
                slowest.req = req;
              }
              settled = true;
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                text: Buffer.concat(chunks).toString('utf8'),
                ms,
              });
            });
          },
        );
      } catch (error) {
        // node:http refuses to write some methods/paths/headers at all: a generator bug, not a server one.
        reject(new Error(`client refused the request: ${(error as Error).message}`));
        return;
      }
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        // The server may answer (413) and close before it read the whole body; the answer counts.
        if (settled) return;
        settled = true;
        reject(error);
      });
      if (req.body !== undefined) {
        if (req.chunked) {
          const bytes = typeof req.body === 'string' ? Buffer.from(req.body) : Buffer.from(req.body);
          for (let i = 0; i < bytes.length; i += 8192) outgoing.write(bytes.subarray(i, i + 8192));
          outgoing.end();
        } else {
          outgoing.end(req.body);
        }
      } else {
        outgoing.end();
      }
    });
  }
}

/**
 * Writes raw bytes on a fresh socket and returns what came back (the status line's code, or 0 when
 * the server closed without answering). For input `node:http` cannot produce: broken request lines,
 * bad header bytes, lying Content-Length.
 */
export function sendRaw(
  baseUrl: string,
  bytes: Uint8Array,
  timeoutMs = 2_000,
): Promise<{ status: number; text: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    const chunks: Buffer[] = [];
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      const text = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      socket.destroy();
      resolve({ status, text });
    };
    socket.setTimeout(timeoutMs, done);
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      // One response is enough: stop once its headers and declared body have arrived.
      const text = Buffer.concat(chunks).toString('latin1');
      const head = text.indexOf('\r\n\r\n');
      if (head >= 0) {
        const headers = text.slice(0, head);
        const length = /\r\ncontent-length: *(\d+)/i.exec(headers)?.[1];
        if (length !== undefined && text.length - head - 4 >= Number(length)) done();
        else if (/\r\ntransfer-encoding: *chunked/i.test(headers) && text.endsWith('0\r\n\r\n')) done();
        else if (
          length === undefined &&
          /\r\nconnection: *close/i.test(headers) &&
          !/\r\ntransfer-encoding/i.test(headers)
        )
          done();
      }
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.on('connect', () => socket.write(bytes));
  });
}
