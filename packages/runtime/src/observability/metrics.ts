import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Read at scrape time from the shared database, so every process reports the same figures. */
export interface OutboxSource {
  countByStatus(): Promise<Readonly<Record<string, number>>>;
  oldestUnsettledAt(): Promise<Date | null>;
}

/** Every instrument of the service, on one registry per process (never prom-client's global one). */
export interface ServerMetrics {
  readonly registry: Registry;
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly rateLimitRejections: Counter<'route' | 'policy'>;
  /** outcome: `delivered` (2xx), `failed` (another status), `error` (unreachable or refused target). */
  readonly webhookDeliveries: Counter<'outcome'>;
  readonly chainErrors: Counter<'operation'>;
  readonly databaseErrors: Counter<'operation'>;
}

const SETTLED = new Set(['finalized', 'failed', 'expired']);
const STATUSES = ['pending', 'processed', 'confirmed', 'finalized', 'failed', 'expired'];

export function createServerMetrics(options: {
  readonly outbox?: OutboxSource;
  readonly now?: () => Date;
  /** Process metrics (CPU, memory, event loop lag); default on. */
  readonly processMetrics?: boolean;
}): ServerMetrics {
  const registry = new Registry();
  const now = options.now ?? (() => new Date());
  if (options.processMetrics !== false)
    collectDefaultMetrics({ register: registry, prefix: 'token_actions_' });

  const metrics: ServerMetrics = {
    registry,
    httpRequests: new Counter({
      name: 'token_actions_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'token_actions_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    rateLimitRejections: new Counter({
      name: 'token_actions_rate_limit_rejections_total',
      help: 'Requests refused with 429 by a rate limit, by route pattern and policy',
      labelNames: ['route', 'policy'],
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: 'token_actions_webhook_deliveries_total',
      help: 'Outbound webhook attempts by outcome: delivered (2xx), failed (other status), error (unreachable or refused)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    chainErrors: new Counter({
      name: 'token_actions_chain_errors_total',
      help: 'Chain calls that failed because the chain was unreachable or broken, by operation',
      labelNames: ['operation'],
      registers: [registry],
    }),
    databaseErrors: new Counter({
      name: 'token_actions_database_errors_total',
      help: 'Store calls that failed because the database was unreachable or broken, by operation',
      labelNames: ['operation'],
      registers: [registry],
    }),
  };

  const outbox = options.outbox;
  if (outbox) {
    new Gauge({
      name: 'token_actions_transactions',
      help: 'Transactions in the outbox, by status',
      labelNames: ['status'],
      registers: [registry],
      async collect() {
        // A scrape during a database outage still answers (with the errors counted), so the
        // gauge keeps its last reading rather than failing the whole exposition.
        const counts = await outbox.countByStatus().catch(() => {
          metrics.databaseErrors.inc({ operation: 'metrics.countByStatus' });
          return undefined;
        });
        if (!counts) return;
        for (const status of new Set([...STATUSES, ...Object.keys(counts)])) {
          this.set({ status }, counts[status] ?? 0);
        }
      },
    });
    new Gauge({
      name: 'token_actions_worker_lag_seconds',
      help: `Age of the oldest transaction not yet settled (${[...SETTLED].join(', ')}); 0 when none is open`,
      registers: [registry],
      async collect() {
        const oldest = await outbox.oldestUnsettledAt().then(
          (at) => ({ at }),
          () => {
            metrics.databaseErrors.inc({ operation: 'metrics.oldestUnsettledAt' });
            return undefined;
          },
        );
        if (!oldest) return;
        this.set(oldest.at ? Math.max(0, (now().getTime() - oldest.at.getTime()) / 1000) : 0);
      },
    });
  }
  return metrics;
}
