/**
 * The one way the adapters reach a JSON-RPC endpoint. Reads and simulations are retried with
 * backoff and jitter within a per-request deadline, honouring `Retry-After`; anything that may
 * change state (`sendTransaction`, `requestAirdrop`, `localnet_mintTo`...) goes out once, since
 * whoever rebroadcasts owns re-sending; sends are also copied to the send endpoints. Endpoints
 * are health-scored: a failing one is benched and calls go to the next. It prints nothing and
 * logs nothing: it tells an observer about every attempt. Defaults and rules: README.md here.
 *
 * Edge-safe: `fetch`, `AbortController`, timers and `URL` only.
 */
import { type RpcRequest, readRequest } from './body.js';
import { type EndpointHealth, EndpointPool } from './endpoints.js';
import { JsonRpcResponseError, RpcBadResponseError, RpcHttpError } from './errors.js';
import type { Answer, Sleep } from './exchange.js';
import type { RpcTransportObserver } from './observer.js';
import { type RpcTransportPolicy, resolvePolicy } from './policy.js';
import { scrubUrls } from './redact.js';
import { type RequestOptions, type RequestRuntime, sendRequest } from './request.js';

export type { EndpointHealth } from './endpoints.js';
export {
  JsonRpcResponseError,
  RpcBadResponseError,
  RpcHttpError,
  RpcNetworkError,
  RpcRetriesExhaustedError,
  RpcTransportError,
  type RpcTransportErrorKind,
} from './errors.js';
export type { Sleep } from './exchange.js';
export type { RpcAttemptEvent, RpcAttemptOutcome, RpcTransportObserver } from './observer.js';
export {
  DEFAULT_RPC_TRANSPORT_POLICY,
  type RpcTransportPolicy,
  TRANSIENT_AGAVE_ERROR_CODES,
} from './policy.js';
export { redactEndpoint } from './redact.js';

export interface RpcTransportConfig {
  /** JSON-RPC endpoints, the first preferred; calls fail over down the list. */
  readonly endpoints: readonly string[];
  /** Extra endpoints every `sendTransaction` also goes to (staked or dedicated sending endpoints). */
  readonly sendEndpoints?: readonly string[];
  /** HTTP client; default `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
  /** Milliseconds since the epoch (Retry-After dates are compared with it); default `Date.now`. */
  readonly clock?: { now(): number };
  /** Default: `setTimeout`, cleared on abort. */
  readonly sleep?: Sleep;
  /** Jitter source in [0, 1); default `Math.random`. */
  readonly random?: () => number;
  readonly policy?: Partial<RpcTransportPolicy>;
  readonly observer?: RpcTransportObserver;
}

export interface RpcCallOptions extends RequestOptions {
  /** Rewrites the answer's text before it is parsed (e.g. to keep a u64 exact). */
  readonly transformText?: (text: string) => string;
}

export interface RpcTransport {
  /**
   * A `fetch` for `@solana/web3.js`'s `Connection` (use `connectionOptions`). It routes each
   * JSON-RPC POST body, single or batched, by the transport's rules, whatever URL it is given; it
   * resolves with the endpoint's answer and throws an `RpcTransportError` when none came.
   */
  readonly fetch: typeof fetch;
  /** `{ fetch, disableRetryOnRateLimit: true }`: web3.js's own 429 retries (fixed, noisy) off. */
  readonly connectionOptions: { readonly fetch: typeof fetch; readonly disableRetryOnRateLimit: true };
  /** The preferred endpoint as configured, for `new Connection(url, ...)`. It may hold a key: never log it. */
  readonly connectionUrl: string;
  /** The endpoints' redacted forms, in order of preference. */
  readonly endpoints: readonly string[];
  /**
   * A bare JSON-RPC call: its `result`, or a throw: `JsonRpcResponseError` (the node's code,
   * message and data), `RpcHttpError` (the status), or the other `RpcTransportError`s.
   */
  call<T = unknown>(method: string, params?: readonly unknown[], options?: RpcCallOptions): Promise<T>;
  health(): readonly EndpointHealth[];
}

/** Waits on `setTimeout`; an abort clears the timer (no stray timers keep a process alive). */
const timerSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

function checkUrls(urls: readonly string[], what: string): void {
  for (const url of urls) {
    let protocol: string;
    try {
      protocol = new URL(url).protocol;
    } catch {
      throw new TypeError(`rpc transport: an entry of ${what} is not a URL`);
    }
    if (protocol !== 'http:' && protocol !== 'https:') {
      throw new TypeError(`rpc transport: ${what} must be http(s) URLs`);
    }
  }
}

async function bodyText(input: RequestInfo | URL, init: RequestInit | undefined): Promise<string> {
  const method = (init?.method ?? (input instanceof Request ? input.method : 'POST')).toUpperCase();
  if (method !== 'POST') throw new TypeError(`rpc transport: JSON-RPC goes by POST, not ${method}`);
  const body = init?.body ?? (input instanceof Request ? await input.text() : undefined);
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return new TextDecoder().decode(body);
  throw new TypeError('rpc transport: the body must be a JSON-RPC request as text');
}

function toResponse(answer: Answer): Response {
  const headers = new Headers(answer.headers);
  // The text is already decoded and may be re-encoded by whoever sends it on.
  headers.delete('content-encoding');
  headers.delete('content-length');
  const noBody = [101, 204, 205, 304].includes(answer.status);
  return new Response(noBody ? null : answer.text, {
    status: answer.status,
    statusText: answer.statusText,
    headers,
  });
}

export function createRpcTransport(config: RpcTransportConfig): RpcTransport {
  if (config.endpoints.length === 0) throw new TypeError('rpc transport: at least one endpoint is needed');
  checkUrls(config.endpoints, 'endpoints');
  checkUrls(config.sendEndpoints ?? [], 'sendEndpoints');
  const policy = resolvePolicy(config.policy);
  const pool = new EndpointPool(config.endpoints, policy);
  const sendCopies = new EndpointPool(config.sendEndpoints ?? [], policy).endpoints;
  const everyEndpoint = [...pool.endpoints, ...sendCopies];
  const clock = config.clock ?? { now: () => Date.now() };
  const runtime: RequestRuntime = {
    // Called through globalThis: an edge runtime refuses `fetch` detached from it.
    fetch: config.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    now: () => clock.now(),
    sleep: config.sleep ?? timerSleep,
    random: config.random ?? Math.random,
    policy,
    observer: config.observer,
    pool,
    sendCopies,
    scrub: (text) => scrubUrls(text, everyEndpoint),
  };
  const jsonHeaders = () => new Headers({ 'content-type': 'application/json' });

  const transportFetch: typeof fetch = async (input, init) => {
    const text = await bodyText(input, init);
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, name) => {
      headers.set(name, value);
    });
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    const options = init?.signal ? { signal: init.signal } : {};
    return toResponse(await sendRequest(runtime, readRequest(text), headers, options));
  };

  let nextId = 1;
  const call = async <T>(method: string, params: readonly unknown[] = [], options: RpcCallOptions = {}) => {
    const id = nextId++;
    const text = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const request: RpcRequest = { text, calls: [{ method, id }], batch: false, name: method };
    const answer = await sendRequest(runtime, request, jsonHeaders(), options);
    const context = { method, endpoint: answer.endpoint.label };
    if (answer.status < 200 || answer.status > 299) {
      throw new RpcHttpError(context, answer.status, answer.statusText);
    }
    const error = answer.errors[0];
    if (error) {
      const transient = policy.transientErrorCodes.includes(error.code);
      throw new JsonRpcResponseError(context, error.code, error.message, error.data, transient);
    }
    let body: unknown;
    try {
      body = JSON.parse(options.transformText ? options.transformText(answer.text) : answer.text);
    } catch {
      const head = answer.text.length > 80 ? `${answer.text.slice(0, 80)}…` : answer.text;
      throw new RpcBadResponseError(context, runtime.scrub(head));
    }
    if (typeof body !== 'object' || body === null || !('result' in body)) {
      throw new RpcBadResponseError(context, 'neither result nor error');
    }
    return (body as { result: T }).result;
  };

  return {
    fetch: transportFetch,
    connectionOptions: { fetch: transportFetch, disableRetryOnRateLimit: true },
    connectionUrl: config.endpoints[0]!,
    endpoints: pool.endpoints.map((endpoint) => endpoint.label),
    call,
    health: () => pool.snapshot(clock.now()),
  };
}
