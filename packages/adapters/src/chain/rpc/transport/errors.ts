/**
 * What the RPC transport throws. Every error names the JSON-RPC method and the endpoint in its
 * redacted form (never the raw URL, which may hold a provider's key), and says whether the fault
 * is transient: a caller that answers its own client can then say "try again later" (503 with
 * `Retry-After`) rather than "broken".
 */

export type RpcTransportErrorKind = 'network' | 'http' | 'json-rpc' | 'bad-response' | 'gave-up';

export interface RpcErrorContext {
  /** The JSON-RPC method; the first of a batch, with `+N` for the others. */
  readonly method: string;
  /** The endpoint in its redacted form. */
  readonly endpoint: string;
}

export abstract class RpcTransportError extends Error {
  abstract readonly kind: RpcTransportErrorKind;
  /** True when the same request may well succeed later (or on another endpoint). */
  abstract readonly transient: boolean;
  readonly method: string;
  readonly endpoint: string;
  /** How long the endpoint asked to be left alone (`Retry-After`), when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(context: RpcErrorContext, message: string, retryAfterMs?: number, options?: ErrorOptions) {
    super(`${context.method}: ${message}`, options);
    this.method = context.method;
    this.endpoint = context.endpoint;
    this.retryAfterMs = retryAfterMs;
  }
}

/** The endpoint could not be reached, or did not answer within the attempt's time. */
export class RpcNetworkError extends RpcTransportError {
  override readonly name = 'RpcNetworkError';
  readonly kind = 'network';
  readonly transient = true;

  constructor(
    context: RpcErrorContext,
    readonly reason: string,
    /** Set when the attempt was cut at its time limit rather than refused. */
    readonly timedOut: boolean,
  ) {
    super(context, `${reason} (${context.endpoint})`);
  }
}

/** HTTP 408, 429 and 5xx are transient; any other status the endpoint chose to answer with is not. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The endpoint answered with an HTTP status other than 2xx. */
export class RpcHttpError extends RpcTransportError {
  override readonly name = 'RpcHttpError';
  readonly kind = 'http';
  readonly transient: boolean;

  constructor(
    context: RpcErrorContext,
    readonly status: number,
    statusText: string,
    retryAfterMs?: number,
  ) {
    super(context, `HTTP ${status}${statusText ? ` ${statusText}` : ''} (${context.endpoint})`, retryAfterMs);
    this.transient = isTransientStatus(status);
  }
}

/** A JSON-RPC error object in the answer, with its code, message and data as the node sent them. */
export class JsonRpcResponseError extends RpcTransportError {
  override readonly name = 'JsonRpcResponseError';
  readonly kind = 'json-rpc';
  readonly transient: boolean;

  constructor(
    context: RpcErrorContext,
    readonly code: number,
    readonly rpcMessage: string,
    readonly data: unknown,
    transient: boolean,
  ) {
    super(context, `JSON-RPC error ${code}: ${rpcMessage}`);
    this.transient = transient;
  }
}

/** A 2xx answer that is not a JSON-RPC response (a proxy's HTML page, truncated JSON...). */
export class RpcBadResponseError extends RpcTransportError {
  override readonly name = 'RpcBadResponseError';
  readonly kind = 'bad-response';
  readonly transient = false;

  constructor(context: RpcErrorContext, detail: string) {
    super(context, `not a JSON-RPC answer (${context.endpoint}): ${detail}`);
  }
}

/**
 * A retried request that got no answer: its deadline would pass before another attempt could
 * finish, or it used all its attempts. `lastFailure` (also the `cause`) is what the last attempt met.
 */
export class RpcRetriesExhaustedError extends RpcTransportError {
  override readonly name = 'RpcRetriesExhaustedError';
  readonly kind = 'gave-up';
  readonly transient = true;

  constructor(
    readonly reason: 'deadline' | 'attempts',
    readonly attempts: number,
    readonly deadlineMs: number,
    readonly lastFailure: RpcTransportError,
  ) {
    const tries = `${attempts} attempt${attempts === 1 ? '' : 's'}`;
    const why =
      reason === 'deadline'
        ? `deadline of ${deadlineMs} ms passed (no time for another attempt) after ${tries}`
        : `no answer after ${tries}, the most allowed`;
    super(
      { method: lastFailure.method, endpoint: lastFailure.endpoint },
      `${why}; last failure: ${stripMethod(lastFailure)}`,
      lastFailure.retryAfterMs,
      { cause: lastFailure },
    );
  }
}

function stripMethod(error: RpcTransportError): string {
  const prefix = `${error.method}: `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}
