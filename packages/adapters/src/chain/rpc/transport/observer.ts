import type { RpcRequest } from './body.js';
import type { Answer, ExchangeResult } from './exchange.js';

export type RpcAttemptOutcome = 'ok' | 'retry' | 'failed';

/**
 * One JSON-RPC call in one HTTP attempt. A batch of n calls makes n events per attempt (each with
 * `batchSize` n and the attempt's duration), so counting events counts calls, retries included.
 */
export interface RpcAttemptEvent {
  readonly method: string;
  /** The endpoint's redacted form: safe in logs and as a metrics label. */
  readonly endpoint: string;
  /** 1 for the first attempt of the request, 2 for its first retry... */
  readonly attempt: number;
  /**
   * `ok`: the endpoint answered (a JSON-RPC error object in a 2xx answer is an answer, see
   * `errorCode`); `retry`: a transient fault, and another attempt follows; `failed`: no answer
   * and no other attempt, or an HTTP error status passed on as the answer.
   */
  readonly outcome: RpcAttemptOutcome;
  /** The HTTP status, when one came back. */
  readonly status?: number;
  /** The code of the JSON-RPC error object this call was answered with. */
  readonly errorCode?: number;
  /** Why the attempt did not answer (`HTTP 503 …`, `timed out after 4000 ms`, `JSON-RPC error -32005: …`). */
  readonly error?: string;
  readonly durationMs: number;
  /** The `Retry-After` the endpoint sent, in milliseconds. */
  readonly retryAfterMs?: number;
  /** Set when the call travelled in a batch of this many calls. */
  readonly batchSize?: number;
  /** Set on the copies of a send that went to the send endpoints. */
  readonly copy?: true;
}

/** The transport logs nothing: the caller counts, times and logs what it wants from these. */
export interface RpcTransportObserver {
  onAttempt?(event: RpcAttemptEvent): void;
}

export function emitAttempt(
  observer: RpcTransportObserver | undefined,
  request: RpcRequest,
  attempt: number,
  outcome: RpcAttemptOutcome,
  result: ExchangeResult,
  copy = false,
): void {
  if (!observer?.onAttempt) return;
  const shared = {
    attempt,
    outcome,
    durationMs: result.durationMs,
    ...(request.batch ? { batchSize: request.calls.length } : {}),
    ...(copy ? { copy: true as const } : {}),
  };
  const events: RpcAttemptEvent[] = result.ok
    ? answerEvents(request, result.answer, shared)
    : request.calls.map((call) => ({
        ...shared,
        method: call.method,
        endpoint: result.failure.endpoint,
        error: result.failure.message.slice(result.failure.method.length + 2),
        ...(result.status === undefined ? {} : { status: result.status }),
        ...(result.failure.retryAfterMs === undefined ? {} : { retryAfterMs: result.failure.retryAfterMs }),
      }));
  for (const event of events) {
    try {
      observer.onAttempt(event);
    } catch {
      // An observer's fault (a metrics client, a logger) must not change what the request answers.
    }
  }
}

function answerEvents(
  request: RpcRequest,
  answer: Answer,
  shared: Omit<RpcAttemptEvent, 'method' | 'endpoint'>,
): RpcAttemptEvent[] {
  const httpError = answer.status < 200 || answer.status > 299;
  return request.calls.map((call, index) => {
    const code = answer.errors[index]?.code;
    return {
      ...shared,
      method: call.method,
      endpoint: answer.endpoint.label,
      status: answer.status,
      ...(httpError ? { error: `HTTP ${answer.status}` } : {}),
      ...(code === undefined ? {} : { errorCode: code }),
    };
  });
}
