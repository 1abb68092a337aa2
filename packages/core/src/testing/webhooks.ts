import { okAsync } from 'neverthrow';
import type { ClockPort } from '../ports/clock.js';
import type { WebhookDelivery, WebhookSenderPort, WebhookStore } from '../ports/webhooks.js';

/** Inbound webhook ids and the outbound delivery queue, in memory, with the pg adapter's rules. */
export function createInMemoryWebhookStore(options: { clock?: ClockPort } = {}): WebhookStore & {
  list(): readonly WebhookDelivery[];
} {
  void options;
  const inbound = new Set<string>();
  const deliveries = new Map<string, WebhookDelivery>();
  return {
    list: () => [...deliveries.values()].map((d) => ({ ...d })),
    recordInbound(id) {
      if (inbound.has(id)) return okAsync(false);
      inbound.add(id);
      return okAsync(true);
    },
    enqueue(d) {
      if (deliveries.has(d.id)) return okAsync(false);
      deliveries.set(d.id, { ...d, status: 'pending', attempts: 0 });
      return okAsync(true);
    },
    claimDue(now, limit, leaseMs) {
      const due = [...deliveries.values()]
        .filter((d) => d.status === 'pending' && d.nextAttemptAt.getTime() <= now.getTime())
        .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || (a.id < b.id ? -1 : 1))
        .slice(0, Math.max(0, limit));
      for (const d of due) deliveries.set(d.id, { ...d, nextAttemptAt: new Date(now.getTime() + leaseMs) });
      return okAsync(due.map((d) => ({ ...d })));
    },
    recordAttempt(id, attempt, at) {
      const d = deliveries.get(id);
      if (d?.status !== 'pending') return okAsync(undefined);
      if (attempt.delivered) {
        deliveries.set(id, {
          ...d,
          status: 'delivered',
          attempts: d.attempts + 1,
          deliveredAt: at,
          lastStatusCode: attempt.statusCode,
        });
      } else {
        deliveries.set(id, {
          ...d,
          attempts: d.attempts + 1,
          lastError: attempt.error,
          ...(attempt.statusCode !== undefined ? { lastStatusCode: attempt.statusCode } : {}),
          ...(attempt.nextAttemptAt ? { nextAttemptAt: attempt.nextAttemptAt } : { status: 'dead' as const }),
        });
      }
      return okAsync(undefined);
    },
    cancelPending(clientId, reason) {
      let n = 0;
      for (const d of deliveries.values()) {
        if (d.clientId !== clientId || d.status !== 'pending') continue;
        deliveries.set(d.id, { ...d, status: 'dead', lastError: reason });
        n++;
      }
      return okAsync(n);
    },
    get(id) {
      const d = deliveries.get(id);
      return okAsync(d ? { ...d } : null);
    },
  };
}

/** A sender that records what it was asked to send and answers with scripted status codes. */
export function createRecordingWebhookSender(statuses: number[] = []): WebhookSenderPort & {
  readonly sent: { id: string; url: string; payload: string; at: Date }[];
} {
  const sent: { id: string; url: string; payload: string; at: Date }[] = [];
  return {
    sent,
    send(delivery) {
      sent.push({ id: delivery.id, url: delivery.url, payload: delivery.payload, at: delivery.timestamp });
      return okAsync({ statusCode: statuses.shift() ?? 200 });
    },
  };
}
