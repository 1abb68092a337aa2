import {
  createRpcTransport,
  type RpcAttemptEvent,
  type RpcTransportConfig,
  type Sleep,
} from '../../src/chain/rpc/transport/index.js';

/*
 * A fake clock with fake timers, and a fake JSON-RPC endpoint, for the transport's tests: no real
 * timer runs, so backoffs of seconds and Retry-After dates cost nothing and come out exact.
 */

interface Timer {
  readonly at: number;
  readonly order: number;
  readonly fire: () => void;
}

/** Macrotask turns that let every promise chain the fakes started run to its next wait. */
async function drain(): Promise<void> {
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** Where every fake clock starts: a Sunday, so the HTTP-dates in tests read plainly. */
export const START = Date.UTC(2025, 5, 1, 12, 0, 0);

export function fakeTime(start = START) {
  let now = start;
  let order = 0;
  const timers: Timer[] = [];
  const remove = (timer: Timer) => {
    const index = timers.indexOf(timer);
    if (index >= 0) timers.splice(index, 1);
  };

  const sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const timer: Timer = { at: now + Math.max(0, ms), order: order++, fire: () => resolve() };
      timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          remove(timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });

  return {
    clock: { now: () => now },
    sleep,
    get now() {
      return now;
    },
    /** Moves the clock on without firing timers (time passing between requests). */
    advance(ms: number) {
      now += ms;
    },
    /** Timers still waiting, for asserting that nothing was left behind. */
    pending: () => timers.length,
    /**
     * Runs `promise` to its end: whenever everything is waiting on a timer, jumps the clock to
     * the earliest timer and fires it.
     */
    async settle<T>(promise: Promise<T>): Promise<T> {
      let done = false;
      promise.then(
        () => {
          done = true;
        },
        () => {
          done = true;
        },
      );
      for (;;) {
        await drain();
        if (done) return promise;
        const next = [...timers].sort((a, b) => a.at - b.at || a.order - b.order)[0];
        if (!next) throw new Error('the promise waits on nothing the fake clock can fire');
        remove(next);
        now = Math.max(now, next.at);
        next.fire();
      }
    },
  };
}

export type FakeTime = ReturnType<typeof fakeTime>;

// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON-RPC body, read loosely by the fakes
type Body = any;

/** What an endpoint does with one HTTP request. */
export type Reply = ((body: Body) => Response | Promise<Response>) | 'network' | 'hang';

export interface SeenRequest {
  readonly url: string;
  readonly body: Body;
  readonly methods: readonly string[];
  readonly at: number;
  readonly headers: Headers;
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });

const eachCall = (body: Body, answer: (call: Body) => unknown) =>
  Array.isArray(body) ? body.map(answer) : answer(body);

/** A 200 answering every call of the body with `result`. */
export const result =
  (value: unknown): Reply =>
  (body) =>
    json(eachCall(body, (call) => ({ jsonrpc: '2.0', id: call.id, result: value })));

/** A 200 answering every call of the body with a JSON-RPC error object. */
export const rpcError =
  (code: number, message: string, data?: unknown): Reply =>
  (body) =>
    json(eachCall(body, (call) => ({ jsonrpc: '2.0', id: call.id, error: { code, message, data } })));

/** A 200 answering each call with what `handlers[method](params)` returns (a fake JSON-RPC server). */
export const methods =
  (handlers: Record<string, (params: Body) => unknown>): Reply =>
  (body) =>
    json(
      eachCall(body, (call) => {
        const handler = handlers[call.method];
        return handler
          ? { jsonrpc: '2.0', id: call.id, result: handler(call.params) }
          : { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'Method not found' } };
      }),
    );

/** `reply`, `ms` later on the fake clock (the endpoint's latency). */
export const delayed =
  (time: FakeTime, ms: number, reply: Reply): Reply =>
  async (body) => {
    await time.sleep(ms);
    if (typeof reply !== 'function') throw new Error('delayed takes a function reply');
    return reply(body);
  };

/** An HTTP error status with a plain body. */
export const status =
  (code: number, headers: Record<string, string> = {}): Reply =>
  () =>
    new Response(`status ${code}`, { status: code, headers });

/**
 * A fake `fetch` over endpoints that each play a script: the n-th request to a URL gets its n-th
 * reply, the last reply repeating; a URL with no script refuses the connection.
 */
export function scriptedFetch(time: FakeTime, scripts: Record<string, readonly Reply[]>) {
  const seen: SeenRequest[] = [];
  const counts = new Map<string, number>();
  const fetchFn: typeof fetch = async (input, init) => {
    const url = String(input);
    const body = JSON.parse(String(init?.body));
    const methods = (Array.isArray(body) ? body : [body]).map((call: Body) => String(call.method));
    seen.push({ url, body, methods, at: time.now, headers: new Headers(init?.headers) });
    const n = counts.get(url) ?? 0;
    counts.set(url, n + 1);
    const script = scripts[url] ?? ['network'];
    const reply = script[Math.min(n, script.length - 1)]!;
    if (reply === 'network') throw new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') });
    if (reply === 'hang') {
      // As a real fetch does, a hung request ends only when its signal aborts.
      return new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
      });
    }
    return reply(body);
  };
  return {
    fetch: fetchFn,
    seen,
    /** Requests that reached `url`, in order. */
    to: (url: string) => seen.filter((request) => request.url === url),
  };
}

export const body = (method: string, params: unknown[] = [], id: number | string = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

export const post = (text: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: text,
});

export const A = 'https://a.example/rpc';
export const B = 'https://b.example/rpc';
export const S1 = 'https://send-1.example/tx';
export const S2 = 'https://send-2.example/tx';

/**
 * A transport over scripted endpoints on a fake clock, with jitter at its middle (0.5) unless
 * told, and every observer event kept.
 */
export function setup(
  scripts: Record<string, readonly Reply[]> | ((time: FakeTime) => Record<string, readonly Reply[]>),
  config: Partial<RpcTransportConfig> = {},
) {
  const time = fakeTime();
  const server = scriptedFetch(time, typeof scripts === 'function' ? scripts(time) : scripts);
  const events: RpcAttemptEvent[] = [];
  const transport = createRpcTransport({
    endpoints: [A],
    fetch: server.fetch,
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0.5,
    observer: { onAttempt: (event) => events.push(event) },
    ...config,
  });
  const start = time.now;
  return {
    time,
    server,
    events,
    transport,
    /** Runs a promise of the transport to its end on the fake clock. */
    run: <T>(promise: Promise<T>) => time.settle(promise),
    /** When (ms after the start) each request reached `url`. */
    times: (url: string) => server.to(url).map((request) => request.at - start),
    /** The promise's rejection, for asserting on the error. */
    failure: async (promise: Promise<unknown>) => {
      const outcome = await time.settle(promise).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (outcome === undefined) throw new Error('expected a rejection');
      return outcome as Error;
    },
  };
}
