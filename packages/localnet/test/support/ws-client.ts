import { WebSocket } from 'ws';

/** A raw JSON-RPC websocket client for tests: requests by id, notifications collected in order. */
export interface TestSocket {
  request(method: string, params?: unknown): Promise<Record<string, unknown>>;
  sendRaw(text: string): void;
  readonly notifications: Record<string, unknown>[];
  /** Every message received, replies included, as parsed JSON. */
  readonly messages: unknown[];
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function openSocket(url: string): Promise<TestSocket> {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let nextId = 1;
  const waiting = new Map<unknown, (reply: Record<string, unknown>) => void>();
  const notifications: Record<string, unknown>[] = [];
  const messages: unknown[] = [];
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    messages.push(message);
    if (Array.isArray(message)) return;
    if ('method' in message) notifications.push(message);
    else waiting.get(message.id)?.(message);
  });
  const waitFor = (predicate: () => boolean, timeoutMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const poll = () => {
        if (predicate()) resolve();
        else if (Date.now() - started > timeoutMs) reject(new Error('timed out waiting on the websocket'));
        else setTimeout(poll, 5);
      };
      poll();
    });
  return {
    notifications,
    messages,
    waitFor,
    sendRaw: (text) => ws.send(text),
    request(method, params) {
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close();
      }),
  };
}
