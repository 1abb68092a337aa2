import { retryAfterSeconds } from './errors.js';

/** How a request answered 429 or 503 is tried again. */
export interface RetryOptions {
  /** Attempts in all, the first included; 1 turns retries off. Default 3. */
  readonly maxAttempts?: number;
  /**
   * Milliseconds from the first attempt within which every wait must end. A `Retry-After` that
   * would end later is not waited for: its answer is returned (and thrown as a TokenActionsError
   * with `retryAfterSeconds`). Default 30,000.
   */
  readonly deadlineMs?: number;
  /** The first wait when the answer has no `Retry-After`; doubled on each attempt. Default 500. */
  readonly baseDelayMs?: number;
}

export type FetchLike = (request: Request) => Promise<Response>;

/**
 * 429: the service refused before doing anything (interface B's guard, the Actions' limiter).
 * 503: the chain or database is unreachable (CHAIN_UNAVAILABLE, STORE_UNAVAILABLE), with Retry-After.
 * Nothing else is retried: a 409 or 500 may mean the request was acted on.
 */
const RETRIED_STATUSES = new Set([429, 503]);

const DEFAULTS = { maxAttempts: 3, deadlineMs: 30_000, baseDelayMs: 500 } as const;

/**
 * `fetch` that retries an answer of 429 or 503. A POST is retried only when it carries an
 * `Idempotency-Key`: each attempt is a clone of the one request, so they all send the same key and
 * the service runs it at most once.
 */
export function retrying(fetch: FetchLike, options: RetryOptions = {}): FetchLike {
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULTS.maxAttempts);
  const deadlineMs = options.deadlineMs ?? DEFAULTS.deadlineMs;
  const baseDelayMs = options.baseDelayMs ?? DEFAULTS.baseDelayMs;

  return async (request) => {
    const repeatable = request.method !== 'POST' || request.headers.has('idempotency-key');
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      // The original stays unread, so every attempt (the last one too) sends the same body.
      const response = await fetch(request.clone());
      if (!RETRIED_STATUSES.has(response.status) || !repeatable || attempt >= maxAttempts) return response;
      const wait = waitMs(response, attempt, baseDelayMs);
      if (Date.now() + wait - started > deadlineMs) return response;
      // The discarded answer's body is released rather than left to the garbage collector. Not
      // awaited: cancelling one branch of a tee'd body (a cloned Response) settles only once the
      // other branch is cancelled too, which may be never.
      response.body?.cancel().catch(() => {});
      await sleep(wait, request.signal);
    }
  };
}

function waitMs(response: Response, attempt: number, baseDelayMs: number): number {
  const seconds = retryAfterSeconds(response.headers.get('retry-after'), Date.now());
  if (seconds !== undefined) return seconds * 1000;
  // Half fixed, half random ("equal jitter"), so clients refused together do not return together.
  const backoff = baseDelayMs * 2 ** (attempt - 1);
  return backoff / 2 + Math.random() * (backoff / 2);
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
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
}
