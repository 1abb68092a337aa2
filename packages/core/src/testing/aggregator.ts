import { errAsync, okAsync } from 'neverthrow';
import type { DomainError } from '../errors.js';
import type { AggregatorPort, AggregatorQuote, AggregatorSwap } from '../ports/aggregator.js';

/**
 * A scripted aggregator: `quote` answers the next queued quote (or error), `swap` the next queued
 * transaction. Records what it was asked so tests can check the request shapes.
 */
export function createFakeAggregator(
  script: {
    quotes?: (AggregatorQuote | DomainError)[];
    swaps?: (Omit<AggregatorSwap, 'quote' | 'recorded'> | DomainError)[];
  } = {},
): AggregatorPort & { readonly calls: { method: 'quote' | 'swap'; request: unknown }[] } {
  const quotes = [...(script.quotes ?? [])];
  const swaps = [...(script.swaps ?? [])];
  const calls: { method: 'quote' | 'swap'; request: unknown }[] = [];
  const isError = (v: unknown): v is DomainError => typeof (v as DomainError)?.code === 'string';
  return {
    name: 'fake',
    calls,
    quote(request) {
      calls.push({ method: 'quote', request });
      const next = quotes.shift();
      if (!next)
        return errAsync({ code: 'AGGREGATOR_NO_ROUTE', message: 'no scripted quote' } as DomainError);
      return isError(next) ? errAsync(next) : okAsync(next);
    },
    swap(request) {
      calls.push({ method: 'swap', request });
      const next = swaps.shift();
      if (!next)
        return errAsync({ code: 'AGGREGATOR_UNAVAILABLE', message: 'no scripted swap' } as DomainError);
      return isError(next) ? errAsync(next) : okAsync({ ...next, quote: request.quote, recorded: false });
    },
  };
}
