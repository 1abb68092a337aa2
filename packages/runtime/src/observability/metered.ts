import type { DomainError, WebhookSenderPort } from '@token-actions/core';
import { type Result, ResultAsync } from 'neverthrow';
import type { Counter } from 'prom-client';

/** Failures that say the dependency itself is down or broken, not that the input was refused. */
const DEPENDENCY_FAILURES = new Set(['CHAIN_UNAVAILABLE', 'STORE_UNAVAILABLE', 'INTERNAL']);

type AnyResult = Result<unknown, DomainError>;

const isResult = (value: unknown): value is AnyResult =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as AnyResult).isErr === 'function' &&
  typeof (value as AnyResult).mapErr === 'function';

/**
 * The same port, counting every dependency failure its methods return (a neverthrow Result or
 * ResultAsync whose error is CHAIN_UNAVAILABLE, STORE_UNAVAILABLE or INTERNAL) under the method's
 * path (`transactions.claimUnsettled`). Nested port groups (`store.transactions`) are wrapped too;
 * everything else passes through untouched.
 */
export function meterFailures<T extends object>(port: T, counter: Counter<'operation'>, prefix = ''): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(port, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof key !== 'string') return value;
      if (wrapped.has(key)) return wrapped.get(key);
      const operation = prefix ? `${prefix}.${key}` : key;
      let out: unknown = value;
      if (typeof value === 'function') {
        // Looks at the Result and hands the same one on. Not `mapErr`: every store and chain call
        // passes through here, and mapErr builds a new Ok, an async function's promise and its
        // generator per call, garbage that outlives a scavenge often enough to cost the event
        // loop a mark-compact a second under load.
        const count = (result: AnyResult): AnyResult => {
          if (result.isErr() && DEPENDENCY_FAILURES.has(result.error.code)) counter.inc({ operation });
          return result;
        };
        out = (...args: unknown[]) => {
          const result = (value as (...a: unknown[]) => unknown).apply(target, args);
          // A ResultAsync's `then` is its inner promise's: the Promise the constructor takes.
          if (result instanceof ResultAsync)
            return new ResultAsync(
              (result as ResultAsync<unknown, DomainError>).then(count) as Promise<AnyResult>,
            );
          return isResult(result) ? count(result) : result;
        };
      } else if (typeof value === 'object' && value !== null && !Array.isArray(value) && isPortGroup(value)) {
        out = meterFailures(value, counter, operation);
      }
      wrapped.set(key, out);
      return out;
    },
  });
}

/** A plain object of methods (a sub-port such as `store.transactions`), not data. */
function isPortGroup(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value).some((v) => typeof v === 'function');
}

/** The webhook sender, counting each attempt by its outcome. */
export function meterWebhookSender(
  sender: WebhookSenderPort,
  counter: Counter<'outcome'>,
): WebhookSenderPort {
  return {
    send(delivery) {
      return sender
        .send(delivery)
        .map((answer) => {
          counter.inc({
            outcome: answer.statusCode >= 200 && answer.statusCode < 300 ? 'delivered' : 'failed',
          });
          return answer;
        })
        .mapErr((error) => {
          counter.inc({ outcome: 'error' });
          return error;
        });
    },
  };
}
