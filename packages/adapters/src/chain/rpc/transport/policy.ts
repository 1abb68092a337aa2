/** How the transport retries, times out and benches endpoints; every field has a default. */
export interface RpcTransportPolicy {
  /** Budget of one request, every attempt and wait included. */
  readonly deadlineMs: number;
  /** Budget of one HTTP attempt; never past the request's deadline. */
  readonly attemptTimeoutMs: number;
  /** A retry starts only if at least this much of the deadline is left once its wait is over. */
  readonly minAttemptMs: number;
  /** Attempts of one retried request at most, the first included. */
  readonly maxAttempts: number;
  /** Retry n waits a random time in [0, min(backoffMaxMs, backoffBaseMs · 2^(n-1))) (full jitter). */
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  /** An endpoint's n-th failure in a row benches it min(benchMaxMs, benchBaseMs · 2^(n-1)). */
  readonly benchBaseMs: number;
  readonly benchMaxMs: number;
  /** JSON-RPC error codes that say "this node, now" rather than "this request". */
  readonly transientErrorCodes: readonly number[];
  /** Methods that may be sent again inside one request. */
  readonly retryable: (method: string) => boolean;
  /** Methods also sent to every send endpoint. */
  readonly broadcast: (method: string) => boolean;
}

/**
 * A method is retried only when its name says it reads: `get…`/`is…` (after an optional
 * `namespace_` prefix, as in `localnet_getMints`), `simulateTransaction` and `minimumLedgerSlot`.
 * Everything else may change state (`sendTransaction`, `requestAirdrop`, `localnet_mintTo`, a
 * method this list does not know): sending it twice could do the thing twice.
 */
const READ_METHOD = /^(?:[a-z]+_)?(?:get|is)[A-Z]|^simulateTransaction$|^minimumLedgerSlot$/;

/**
 * Transient agave error codes (rpc-client-api's custom errors): -32005 the node is unhealthy or
 * behind the cluster, -32016 the node has not reached the context slot asked for, -32019 its
 * long-term storage could not be reached ("please try again"). Each is about the node, not the
 * request: another attempt, on this node later or on another, can succeed.
 */
export const TRANSIENT_AGAVE_ERROR_CODES: readonly number[] = [-32005, -32016, -32019];

export const DEFAULT_RPC_TRANSPORT_POLICY: RpcTransportPolicy = {
  deadlineMs: 8_000,
  attemptTimeoutMs: 4_000,
  minAttemptMs: 250,
  maxAttempts: 5,
  backoffBaseMs: 200,
  backoffMaxMs: 2_000,
  benchBaseMs: 1_000,
  benchMaxMs: 30_000,
  transientErrorCodes: TRANSIENT_AGAVE_ERROR_CODES,
  retryable: (method) => READ_METHOD.test(method),
  broadcast: (method) => method === 'sendTransaction',
};

const DURATIONS = [
  'deadlineMs',
  'attemptTimeoutMs',
  'minAttemptMs',
  'maxAttempts',
  'backoffBaseMs',
  'backoffMaxMs',
  'benchBaseMs',
  'benchMaxMs',
] as const;

/** The defaults with `overrides` applied; a bad number is a configuration error, thrown at once. */
export function resolvePolicy(overrides: Partial<RpcTransportPolicy> = {}): RpcTransportPolicy {
  const policy = { ...DEFAULT_RPC_TRANSPORT_POLICY, ...overrides };
  for (const field of DURATIONS) {
    const value = policy[field];
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`rpc transport: ${field} must be ≥ 0`);
  }
  for (const field of ['deadlineMs', 'attemptTimeoutMs', 'maxAttempts'] as const) {
    if (policy[field] < 1) throw new RangeError(`rpc transport: ${field} must be ≥ 1`);
  }
  return policy;
}

/** The wait before retry `retry` (1 for the first retry): full jitter over an exponential ceiling. */
export function backoffMs(policy: RpcTransportPolicy, retry: number, random: () => number): number {
  const ceiling = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/** How long an endpoint is benched after `failures` failures in a row. */
export function benchMs(policy: RpcTransportPolicy, failures: number): number {
  return Math.min(policy.benchMaxMs, policy.benchBaseMs * 2 ** (Math.max(1, failures) - 1));
}
