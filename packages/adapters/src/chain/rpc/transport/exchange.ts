import { answerErrors, type RpcErrorObject, type RpcRequest } from './body.js';
import type { Endpoint } from './endpoints.js';
import {
  isTransientStatus,
  JsonRpcResponseError,
  RpcHttpError,
  RpcNetworkError,
  type RpcTransportError,
} from './errors.js';
import type { RpcTransportPolicy } from './policy.js';
import { parseRetryAfter } from './retry-after.js';

/** Waits `ms`; rejects with the signal's reason as soon as `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** What one HTTP exchange needs, shared by every request of a transport. */
export interface ExchangeRuntime {
  readonly fetch: typeof fetch;
  readonly now: () => number;
  readonly sleep: Sleep;
  readonly policy: RpcTransportPolicy;
  /** Removes raw endpoint URLs from a message (an HTTP client may quote the URL it failed on). */
  readonly scrub: (text: string) => string;
}

/** An answer to pass on: 2xx, or a status the endpoint chose on purpose (400, 401, 404...). */
export interface Answer {
  readonly endpoint: Endpoint;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly text: string;
  /** The JSON-RPC error object of each call, where it has one. */
  readonly errors: readonly (RpcErrorObject | undefined)[];
}

export type ExchangeResult = { readonly durationMs: number } & (
  | { readonly ok: true; readonly answer: Answer }
  /** A transient failure, the endpoint's fault: network, timeout, 408/429/5xx, a node behind. */
  | { readonly ok: false; readonly failure: RpcTransportError; readonly status?: number }
);

/** `promise`, or a rejection with the signal's reason once `signal` aborts, whichever comes first. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The JSON-RPC error that says the node, not the request, is at fault, if the answer holds one. */
function transientError(
  request: RpcRequest,
  errors: readonly (RpcErrorObject | undefined)[],
  codes: readonly number[],
  endpoint: Endpoint,
): JsonRpcResponseError | undefined {
  const index = errors.findIndex((error) => error !== undefined && codes.includes(error.code));
  if (index < 0) return undefined;
  const error = errors[index]!;
  const context = { method: request.calls[index]!.method, endpoint: endpoint.label };
  return new JsonRpcResponseError(context, error.code, error.message, error.data, true);
}

/**
 * One POST of `request` to `endpoint`, cut after `timeoutMs` (the body read included). Never
 * throws, except with the caller's abort reason when `callerSignal` aborts.
 */
export async function exchange(
  runtime: ExchangeRuntime,
  endpoint: Endpoint,
  request: RpcRequest,
  headers: Headers,
  timeoutMs: number,
  callerSignal?: AbortSignal,
): Promise<ExchangeResult> {
  const context = { method: request.name, endpoint: endpoint.label };
  const started = runtime.now();
  const attempt = new AbortController();
  const timer = new AbortController();
  let timedOut = false;
  runtime.sleep(timeoutMs, timer.signal).then(
    () => {
      timedOut = true;
      attempt.abort(new Error(`timed out after ${timeoutMs} ms`));
    },
    () => {},
  );
  const onCallerAbort = () => attempt.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  if (callerSignal?.aborted) onCallerAbort();
  const elapsed = () => runtime.now() - started;
  try {
    const response = await unlessAborted(
      runtime.fetch(endpoint.url, { method: 'POST', headers, body: request.text, signal: attempt.signal }),
      attempt.signal,
    );
    const text = await unlessAborted(response.text(), attempt.signal);
    if (isTransientStatus(response.status)) {
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), runtime.now());
      const failure = new RpcHttpError(context, response.status, response.statusText, retryAfterMs);
      return { ok: false, failure, status: response.status, durationMs: elapsed() };
    }
    const errors = answerErrors(text, request);
    const behind = transientError(request, errors, runtime.policy.transientErrorCodes, endpoint);
    if (behind) return { ok: false, failure: behind, status: response.status, durationMs: elapsed() };
    const { status, statusText } = response;
    return {
      ok: true,
      answer: { endpoint, status, statusText, headers: response.headers, text, errors },
      durationMs: elapsed(),
    };
  } catch (cause) {
    if (callerSignal?.aborted) throw callerSignal.reason;
    const reason = timedOut
      ? `timed out after ${timeoutMs} ms`
      : runtime.scrub(cause instanceof Error ? describeNetworkError(cause) : String(cause));
    return { ok: false, failure: new RpcNetworkError(context, reason, timedOut), durationMs: elapsed() };
  } finally {
    timer.abort();
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}

/** undici says only "fetch failed" and keeps the reason (ECONNREFUSED...) in its cause. */
function describeNetworkError(error: Error): string {
  const cause = error.cause;
  const detail =
    cause instanceof Error
      ? ((cause as { code?: unknown }).code ?? cause.message)
      : typeof cause === 'string'
        ? cause
        : undefined;
  return detail ? `${error.message}: ${String(detail)}` : error.message;
}
