import { ok, type ResultAsync, safeTry } from 'neverthrow';
import type { DomainError } from '../../errors.js';
import type { SwapDeps, SwapPolicies } from '../swaps/deps.js';

/** Exponential backoff with jitter: base * 2^(attempt-1), capped, then drawn from its upper half. */
export function retryDelayMs(
  policy: Pick<SwapPolicies, 'webhookRetryBaseMs' | 'webhookRetryMaxMs'>,
  attempt: number,
  random: () => number,
): number {
  const exp = Math.min(policy.webhookRetryMaxMs, policy.webhookRetryBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/**
 * One pass of outbound delivery: claims due deliveries, sends each signed, and records the
 * attempt: delivered on a 2xx, otherwise retried after a growing delay until `maxAttempts`.
 */
export function deliverWebhooks(
  deps: Pick<SwapDeps, 'webhooks' | 'webhookSender' | 'clock' | 'swapPolicies' | 'random'>,
  options: { readonly limit?: number; readonly leaseMs?: number } = {},
): ResultAsync<{ delivered: number; retrying: number; dead: number }, DomainError> {
  return safeTry(async function* () {
    const sender = deps.webhookSender;
    if (!sender) return ok({ delivered: 0, retrying: 0, dead: 0 });
    const now = deps.clock.now();
    const due = yield* deps.webhooks.claimDue(now, options.limit ?? 50, options.leaseMs ?? 30_000);
    const random = deps.random ?? Math.random;
    const counts = { delivered: 0, retrying: 0, dead: 0 };
    for (const delivery of due) {
      const sent = await sender.send({
        id: delivery.id,
        url: delivery.url,
        clientId: delivery.clientId,
        payload: delivery.payload,
        timestamp: deps.clock.now(),
      });
      const at = deps.clock.now();
      const statusCode = sent.isOk() ? sent.value.statusCode : undefined;
      if (statusCode !== undefined && statusCode >= 200 && statusCode < 300) {
        yield* deps.webhooks.recordAttempt(delivery.id, { delivered: true, statusCode }, at);
        counts.delivered++;
        continue;
      }
      const attempt = delivery.attempts + 1;
      const error = sent.isErr() ? sent.error.message : `receiver answered ${statusCode}`;
      const retry = attempt < delivery.maxAttempts;
      yield* deps.webhooks.recordAttempt(
        delivery.id,
        {
          delivered: false,
          error,
          ...(statusCode !== undefined ? { statusCode } : {}),
          ...(retry
            ? { nextAttemptAt: new Date(at.getTime() + retryDelayMs(deps.swapPolicies, attempt, random)) }
            : {}),
        },
        at,
      );
      if (retry) counts.retrying++;
      else counts.dead++;
    }
    return ok(counts);
  });
}
