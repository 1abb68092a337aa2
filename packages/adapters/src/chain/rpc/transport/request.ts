import type { RpcRequest } from './body.js';
import type { Endpoint, EndpointPool } from './endpoints.js';
import { RpcRetriesExhaustedError } from './errors.js';
import { type Answer, type ExchangeResult, type ExchangeRuntime, exchange } from './exchange.js';
import { emitAttempt, type RpcTransportObserver } from './observer.js';
import { backoffMs } from './policy.js';

export interface RequestRuntime extends ExchangeRuntime {
  readonly random: () => number;
  readonly observer: RpcTransportObserver | undefined;
  readonly pool: EndpointPool;
  /** Where every send also goes (`sendEndpoints`). */
  readonly sendCopies: readonly Endpoint[];
}

export interface RequestOptions {
  /** This request's budget instead of the policy's `deadlineMs`. */
  readonly deadlineMs?: number;
  readonly signal?: AbortSignal;
}

interface Planned {
  readonly endpoint: Endpoint;
  readonly waitMs: number;
}

const isSuccess = (status: number) => status >= 200 && status <= 299;
/** The endpoint answered with 2xx (a JSON-RPC error object inside is still an answer). */
const answered = (result: ExchangeResult) => result.ok && isSuccess(result.answer.status);

/**
 * Sends `request` and resolves with the answer to pass on, or throws an `RpcTransportError`:
 * reads are retried (`retried`), anything that may change state goes out once (`once`).
 */
export function sendRequest(
  runtime: RequestRuntime,
  request: RpcRequest,
  headers: Headers,
  options: RequestOptions = {},
): Promise<Answer> {
  const { retryable, broadcast } = runtime.policy;
  const methods = request.calls.map((call) => call.method);
  if (methods.every(retryable)) return retried(runtime, request, headers, options);
  // A copy goes to the send endpoints only when every call is a send: a batch that also mints
  // would mint once per endpoint.
  const copies = methods.every(broadcast) ? runtime.sendCopies : [];
  return once(runtime, request, headers, options, copies);
}

/**
 * The first attempt waits for the endpoint's `Retry-After` only when that leaves time for the
 * attempt; otherwise it goes at once, as a request is never failed without trying.
 */
function firstAttempt(runtime: RequestRuntime, now: number, deadline: number): Planned {
  const endpoint = runtime.pool.pick(now);
  const waitMs = Math.max(0, runtime.pool.notBefore(endpoint) - now);
  return { endpoint, waitMs: now + waitMs + runtime.policy.minAttemptMs <= deadline ? waitMs : 0 };
}

/**
 * The next attempt of a retried request: on the endpoint the pool picks now, after a backoff when
 * that is the endpoint that just failed or every endpoint is benched (a healthy other one is
 * tried at once), and never before its `Retry-After`. Undefined when that attempt could not
 * finish before the deadline.
 */
function nextAttempt(
  runtime: RequestRuntime,
  retry: number,
  failed: Endpoint,
  deadline: number,
): Planned | undefined {
  const { pool, policy } = runtime;
  const now = runtime.now();
  const endpoint = pool.pick(now);
  const backoff =
    endpoint === failed || pool.isBenched(endpoint, now) ? backoffMs(policy, retry, runtime.random) : 0;
  const waitMs = Math.max(backoff, pool.notBefore(endpoint) - now);
  return now + waitMs + policy.minAttemptMs <= deadline ? { endpoint, waitMs } : undefined;
}

function attemptTimeout(runtime: RequestRuntime, deadline: number): number {
  return Math.max(1, Math.min(runtime.policy.attemptTimeoutMs, deadline - runtime.now()));
}

/** Scores the endpoint by the result; a status the endpoint chose on purpose (400, 401...) scores nothing. */
function score(runtime: RequestRuntime, result: ExchangeResult, ticket: ReturnType<EndpointPool['begin']>) {
  if (!result.ok) runtime.pool.failed(ticket, runtime.now(), result.failure.retryAfterMs);
  else if (isSuccess(result.answer.status)) runtime.pool.succeeded(ticket);
}

async function retried(
  runtime: RequestRuntime,
  request: RpcRequest,
  headers: Headers,
  options: RequestOptions,
): Promise<Answer> {
  const { policy, pool } = runtime;
  const deadlineMs = options.deadlineMs ?? policy.deadlineMs;
  const deadline = runtime.now() + deadlineMs;
  let planned = firstAttempt(runtime, runtime.now(), deadline);
  for (let attempt = 1; ; attempt++) {
    if (planned.waitMs > 0) await runtime.sleep(planned.waitMs, options.signal);
    const ticket = pool.begin(planned.endpoint);
    const timeout = attemptTimeout(runtime, deadline);
    const result = await exchange(runtime, planned.endpoint, request, headers, timeout, options.signal);
    score(runtime, result, ticket);
    if (result.ok) {
      emitAttempt(runtime.observer, request, attempt, answered(result) ? 'ok' : 'failed', result);
      return result.answer;
    }
    const next =
      attempt < policy.maxAttempts ? nextAttempt(runtime, attempt, planned.endpoint, deadline) : undefined;
    emitAttempt(runtime.observer, request, attempt, next ? 'retry' : 'failed', result);
    if (!next) {
      const reason = attempt < policy.maxAttempts ? 'deadline' : 'attempts';
      throw new RpcRetriesExhaustedError(reason, attempt, deadlineMs, result.failure);
    }
    planned = next;
  }
}

/**
 * One attempt on the preferred healthy endpoint and, at the same moment, one on each of `copies`.
 * The answer is the primary's; when the primary fails, the first copy that succeeded, else the
 * primary's failure. Copies still under way when the answer is known finish on their own.
 */
async function once(
  runtime: RequestRuntime,
  request: RpcRequest,
  headers: Headers,
  options: RequestOptions,
  copies: readonly Endpoint[],
): Promise<Answer> {
  const deadline = runtime.now() + (options.deadlineMs ?? runtime.policy.deadlineMs);
  const planned = firstAttempt(runtime, runtime.now(), deadline);
  const copyResults = copies
    .filter((copy) => copy.url !== planned.endpoint.url)
    .map((copy) =>
      // A copy does not take the caller's signal: the transaction is out, and a caller that stops
      // waiting for the answer should not lower its chances of landing.
      exchange(runtime, copy, request, headers, attemptTimeout(runtime, deadline)).then((result) => {
        emitAttempt(runtime.observer, request, 1, answered(result) ? 'ok' : 'failed', result, true);
        return result;
      }),
    );
  if (planned.waitMs > 0) await runtime.sleep(planned.waitMs, options.signal);
  const ticket = runtime.pool.begin(planned.endpoint);
  const timeout = attemptTimeout(runtime, deadline);
  const result = await exchange(runtime, planned.endpoint, request, headers, timeout, options.signal);
  score(runtime, result, ticket);
  emitAttempt(runtime.observer, request, 1, answered(result) ? 'ok' : 'failed', result);
  if (result.ok) return result.answer;
  const rescued = await firstSuccess(copyResults);
  if (rescued) return rescued;
  throw result.failure;
}

/** The first of `results` to bring a 2xx answer with no JSON-RPC error, if any does. */
function firstSuccess(results: readonly Promise<ExchangeResult>[]): Promise<Answer | undefined> {
  return new Promise((resolve) => {
    let pending = results.length;
    if (pending === 0) resolve(undefined);
    for (const promise of results) {
      void promise.then((result) => {
        const answer = result.ok ? result.answer : undefined;
        if (answer && isSuccess(answer.status) && answer.errors.every((error) => error === undefined)) {
          resolve(answer);
        }
        pending -= 1;
        if (pending === 0) resolve(undefined);
      });
    }
  });
}
