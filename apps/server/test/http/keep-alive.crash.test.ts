/**
 * A kept-alive connection whose idle deadline passes while the server's event loop is stalled (a
 * long garbage collection, a stopped process) must still answer the request the client sent in
 * time, not reset the connection (src/http/keep-alive.ts). The stall is a synchronous wait in this
 * process, which runs the server; the client is a raw socket.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

const KEEP_ALIVE_MS = 300;
/** Node 20.20 closes an idle socket a second after the deadline it advertises. */
const NODE_BUFFER_MS = 1_000;
const REQUEST = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS) });
}, 120_000);
afterAll(async () => {
  await h?.close();
});

/** A raw keep-alive connection: `answers(n)` resolves once n complete answers arrived, or rejects on close. */
function connection() {
  const { hostname, port } = new URL(h.baseUrl);
  const socket: Socket = connect(Number(port), hostname);
  let received = '';
  let failure: string | undefined;
  const waiters: Array<() => void> = [];
  const count = () => received.match(/HTTP\/1\.1 \d{3} /g)?.length ?? 0;
  const complete = () => received.endsWith('}');
  socket.on('data', (chunk) => {
    received += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  socket.on('error', (error: NodeJS.ErrnoException) => {
    failure = error.code ?? error.message;
  });
  socket.on('close', () => {
    failure ??= 'closed';
    for (const wake of waiters.splice(0)) wake();
  });
  const request = () => socket.write(REQUEST);
  const answers = async (n: number) => {
    while (!(count() >= n && complete())) {
      if (failure)
        throw new Error(`connection ${failure} after ${count()} answers: ${JSON.stringify(received)}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
    return received;
  };
  return { socket, request, answers, failure: () => failure };
}

/**
 * Half the idle deadline after an answer, writes `bytes` and blocks this process's event loop,
 * server included, past the deadline before the server has read them. Both happen in the loop's
 * check phase, so its next turn runs the timers, the keep-alive deadline among them, before it
 * reads the socket.
 */
async function writeThenStall(c: ReturnType<typeof connection>, bytes: string) {
  await new Promise((resolve) => setTimeout(resolve, KEEP_ALIVE_MS / 2));
  await new Promise<void>((resolve) =>
    setImmediate(() => {
      c.socket.write(bytes);
      const until = performance.now() + KEEP_ALIVE_MS + NODE_BUFFER_MS + 500;
      while (performance.now() < until) {}
      resolve();
    }),
  );
}

describe('keep-alive deadline during a stall', () => {
  it('answers a request sent before the idle deadline though the loop resumes after it', async () => {
    const c = connection();
    c.request();
    await c.answers(1);
    await writeThenStall(c, REQUEST);
    const text = await c.answers(2);
    expect(text.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    expect(c.failure()).toBeUndefined();
    c.socket.destroy();
  });

  it('still closes a connection that stays idle past the deadline', async () => {
    const c = connection();
    const started = performance.now();
    c.request();
    await c.answers(1);
    await new Promise<void>((resolve) => c.socket.once('close', () => resolve()));
    const afterMs = performance.now() - started;
    expect(c.failure()).toBe('closed');
    expect(afterMs).toBeGreaterThan(KEEP_ALIVE_MS + NODE_BUFFER_MS - 50);
    expect(afterMs).toBeLessThan(KEEP_ALIVE_MS + NODE_BUFFER_MS + 1_000);
  });

  it('closes a connection that sends bytes but no request at its deadline, one deadline later', async () => {
    const c = connection();
    const started = performance.now();
    c.request();
    await c.answers(1);
    // Blank lines before a request line are allowed and start no request: the stall keeps them
    // unread past the deadline, so the connection stays, and must still be closed a deadline later.
    await writeThenStall(c, '\r\n');
    await new Promise<void>((resolve) => c.socket.once('close', () => resolve()));
    const afterMs = performance.now() - started;
    expect(c.failure()).toBe('closed');
    expect(afterMs).toBeGreaterThan(2 * (KEEP_ALIVE_MS + NODE_BUFFER_MS));
    expect(afterMs).toBeLessThan(3 * (KEEP_ALIVE_MS + NODE_BUFFER_MS) + 1_000);
  });
});
