import { benchMs, type RpcTransportPolicy } from './policy.js';
import { endpointLabels } from './redact.js';

export interface Endpoint {
  /** The URL as configured (it may hold a key: never shown). */
  readonly url: string;
  /** Its redacted form, for events, errors and metrics labels. */
  readonly label: string;
}

/** What one endpoint's health looks like from outside, e.g. for a readiness report. */
export interface EndpointHealth {
  readonly endpoint: string;
  /** Failures since its last success. */
  readonly consecutiveFailures: number;
  /** How much longer it is benched; 0 when it takes calls. */
  readonly benchedForMs: number;
}

/** An attempt under way on an endpoint: what it reports back when it ends. */
export interface AttemptTicket {
  readonly endpoint: Endpoint;
  /** The endpoint's failure count when the attempt started (see `EndpointPool.failed`). */
  readonly generation: number;
}

interface Health {
  failures: number;
  /** Bumped by every failure that counts: attempts started before it carry an older one. */
  generation: number;
  benchedUntil: number;
  /** Set by `Retry-After`: the endpoint asked not to be called before then. */
  notBefore: number;
}

/**
 * Endpoints in order of preference with a health score each. A failing endpoint is benched for
 * a time that doubles with each failure in a row (`benchMs`), and at least as long as its
 * `Retry-After`; calls go to the first endpoint not benched. A success ends the bench.
 */
export class EndpointPool {
  readonly endpoints: readonly Endpoint[];
  private readonly health = new Map<Endpoint, Health>();

  constructor(
    urls: readonly string[],
    private readonly policy: RpcTransportPolicy,
  ) {
    const labels = endpointLabels(urls);
    this.endpoints = urls.map((url, index) => ({ url, label: labels[index]! }));
    for (const endpoint of this.endpoints) {
      this.health.set(endpoint, { failures: 0, generation: 0, benchedUntil: 0, notBefore: 0 });
    }
  }

  /**
   * The first endpoint not benched at `now`; when every one is benched, the one whose bench ends
   * first (a request is never failed without trying).
   */
  pick(now: number): Endpoint {
    let earliest = this.endpoints[0]!;
    for (const endpoint of this.endpoints) {
      const benchedUntil = this.of(endpoint).benchedUntil;
      if (benchedUntil <= now) return endpoint;
      if (benchedUntil < this.of(earliest).benchedUntil) earliest = endpoint;
    }
    return earliest;
  }

  isBenched(endpoint: Endpoint, now: number): boolean {
    return this.of(endpoint).benchedUntil > now;
  }

  /** The time before which the endpoint asked (by `Retry-After`) not to be called; 0 when it did not. */
  notBefore(endpoint: Endpoint): number {
    return this.of(endpoint).notBefore;
  }

  begin(endpoint: Endpoint): AttemptTicket {
    return { endpoint, generation: this.of(endpoint).generation };
  }

  /**
   * The endpoint answered. It ends the bench only if no failure was recorded while the attempt was
   * under way: an answer to an older request says less about the endpoint than that failure.
   */
  succeeded(ticket: AttemptTicket): void {
    const health = this.of(ticket.endpoint);
    if (ticket.generation !== health.generation) return;
    health.failures = 0;
    health.benchedUntil = 0;
    health.notBefore = 0;
  }

  /**
   * The endpoint failed (network, timeout, 408, 429, 5xx, a node that says it is behind). Attempts
   * that were under way together and fail together are one outage, not several: only the first
   * of them lengthens the bench.
   */
  failed(ticket: AttemptTicket, now: number, retryAfterMs?: number): void {
    const health = this.of(ticket.endpoint);
    if (ticket.generation === health.generation) {
      health.failures += 1;
      health.generation += 1;
    }
    const benchedFor = Math.max(benchMs(this.policy, health.failures), retryAfterMs ?? 0);
    health.benchedUntil = Math.max(health.benchedUntil, now + benchedFor);
    if (retryAfterMs !== undefined) health.notBefore = Math.max(health.notBefore, now + retryAfterMs);
  }

  snapshot(now: number): EndpointHealth[] {
    return this.endpoints.map((endpoint) => {
      const health = this.of(endpoint);
      return {
        endpoint: endpoint.label,
        consecutiveFailures: health.failures,
        benchedForMs: Math.max(0, health.benchedUntil - now),
      };
    });
  }

  private of(endpoint: Endpoint): Health {
    return this.health.get(endpoint)!;
  }
}
