import { type Hook, z } from '@hono/zod-openapi';
import {
  type Currencies,
  type DomainError,
  formatAmount,
  ppmToPercent,
  type SwapHop,
  type SwapRequestRecord,
} from '@token-actions/core';
import type { Context, Env } from 'hono';
import type { Result, ResultAsync } from 'neverthrow';
import { statusOf } from '../../http/errors.js';
import { describeIssues } from '../../http/validation.js';

/** OAuth 2.0 bearer token (interface B). */
export const bearerSecurity = (scope: 'read' | 'write') => [{ oauth2: [scope] }];

export const RateLimit = z
  .object({ limit: z.number().int(), remaining: z.number().int() })
  .openapi('RateLimit', { description: 'Requests a minute and what is left of the current window' });

export const ErrorB = z
  .object({ code: z.string(), message: z.string(), rateLimit: RateLimit })
  .openapi('InterfaceBError');

const err = (description: string) => ({ description, content: { 'application/json': { schema: ErrorB } } });

export const errorsB = {
  400: err('Invalid input; `message` names the problem'),
  401: err('Missing, invalid or expired bearer token (WWW-Authenticate: Bearer)'),
  403: err('The token lacks the scope (insufficient_scope)'),
  429: err('Rate limit reached (Retry-After)'),
  500: err('Server error'),
} as const;
export const extraError = (status: 404 | 409 | 413 | 422 | 502, description: string) => ({
  [status]: err(description),
});

/** Body validation failures of interface B answer 400 `{code, message}` (the guard adds rateLimit). */
export const interfaceBHook: Hook<unknown, Env, string, unknown> = (result, c) => {
  if (!result.success) {
    return c.json(
      { code: 'INVALID_INPUT', message: `invalid request: ${describeIssues(result.error.issues)}` },
      400,
    );
  }
};

/** The one mapping of a domain error to an interface B answer; 5xx never carry internals. */
export function errorB(c: Context, error: DomainError) {
  const status = statusOf(error.code);
  const message =
    status >= 500 && status !== 502
      ? 'the service could not complete the operation; retry shortly'
      : error.message;
  return c.json({ code: status >= 500 && status !== 502 ? 'INTERNAL' : error.code, message }, status);
}

export async function settle<T>(
  c: Context,
  result: ResultAsync<T, DomainError> | Result<T, DomainError>,
  render: (value: T) => Response | Promise<Response>,
  logError?: (error: DomainError) => void,
): Promise<Response> {
  const settled = await result;
  if (settled.isErr()) {
    if (statusOf(settled.error.code) >= 500) logError?.(settled.error);
    return errorB(c, settled.error);
  }
  return render(settled.value);
}

/** Amounts go out as base-unit integer strings (like Jupiter) with a `…Decimal` twin in whole units. */
export function amounts(currencies: Currencies, fields: Record<string, { units: bigint; code: string }>) {
  const out: Record<string, string> = {};
  for (const [name, { units, code }] of Object.entries(fields)) {
    out[name] = units.toString();
    out[`${name}Decimal`] = formatAmount(units, currencies.byCode(code)?.decimals ?? 0);
  }
  return out;
}

export function hopView(currencies: Currencies, hop: SwapHop) {
  return {
    pool: hop.pool,
    inputToken: hop.inputToken,
    outputToken: hop.outputToken,
    ...amounts(currencies, {
      inAmount: { units: hop.inAmount, code: hop.inputToken },
      outAmount: { units: hop.outAmount, code: hop.outputToken },
      feeAmount: { units: hop.feeAmount, code: hop.inputToken },
    }),
  };
}

export function quoteView(
  currencies: Currencies,
  q: {
    inputToken: string;
    outputToken: string;
    inAmount: bigint;
    outAmount: bigint;
    minOutAmount: bigint;
    feeAmount: bigint;
    priceImpactPpm: bigint;
    slippageBps: number;
    hops: readonly SwapHop[];
  },
) {
  return {
    inputToken: q.inputToken,
    outputToken: q.outputToken,
    ...amounts(currencies, {
      inAmount: { units: q.inAmount, code: q.inputToken },
      outAmount: { units: q.outAmount, code: q.outputToken },
      minOutAmount: { units: q.minOutAmount, code: q.outputToken },
      feeAmount: { units: q.feeAmount, code: q.inputToken },
    }),
    priceImpactPct: ppmToPercent(q.priceImpactPpm),
    slippageBps: q.slippageBps,
    route: q.hops.map((h) => hopView(currencies, h)),
  };
}

export function swapView(currencies: Currencies, r: SwapRequestRecord) {
  return {
    requestId: r.requestId,
    source: r.source,
    status: r.status,
    ...(r.transactionId ? { transactionId: r.transactionId } : {}),
    account: r.user,
    inputToken: r.inputToken,
    outputToken: r.outputToken,
    ...amounts(currencies, {
      inAmount: { units: r.inAmount, code: r.inputToken },
      outAmount: { units: r.outAmount, code: r.outputToken },
    }),
    createdAt: r.createdAt.toISOString(),
  };
}

const units = z
  .string()
  .openapi({ description: 'Base units, a decimal integer string', example: '149401047' });
const decimal = z.string().openapi({ description: 'The same amount in whole units', example: '149.401047' });
const Hop = z
  .object({
    pool: z.string(),
    inputToken: z.string(),
    outputToken: z.string(),
    inAmount: units,
    inAmountDecimal: decimal,
    outAmount: units,
    outAmountDecimal: decimal,
    feeAmount: units,
    feeAmountDecimal: decimal,
  })
  .openapi('SwapHop');

export const Quote = z
  .object({
    inputToken: z.string(),
    outputToken: z.string(),
    inAmount: units,
    inAmountDecimal: decimal,
    outAmount: units,
    outAmountDecimal: decimal,
    minOutAmount: units,
    minOutAmountDecimal: decimal,
    feeAmount: units,
    feeAmountDecimal: decimal,
    priceImpactPct: z.string().openapi({ description: 'Percent, e.g. "0.0996" = 0.0996%' }),
    slippageBps: z.number().int(),
    route: z.array(Hop),
  })
  .openapi('SwapQuote');

export const SwapItem = z
  .object({
    requestId: z.string(),
    source: z.string(),
    status: z.string(),
    transactionId: z.string().optional(),
    account: z.string(),
    inputToken: z.string(),
    outputToken: z.string(),
    inAmount: units,
    inAmountDecimal: decimal,
    outAmount: units,
    outAmountDecimal: decimal,
    createdAt: z.string(),
  })
  .openapi('SwapHistoryItem');

export const SwapRequestBody = z
  .strictObject({
    tokenPair: z
      .string()
      .openapi({ description: 'INPUT-OUTPUT tickers, e.g. SOL-USDC', example: 'SOL-USDC' }),
    amount: z
      .string()
      .openapi({ description: 'Input amount in whole units, a decimal string', example: '1.5' }),
    slippageBps: z.number().int().optional().openapi({ description: '0-5000, default 50' }),
    account: z
      .string()
      .optional()
      .openapi({ description: "Wallet that swaps and signs; the token's wallet by default" }),
  })
  .openapi('SwapRequest');

/** The validated part of a request (typed loosely: the guard's middleware hides zod-openapi's inference). */
export function valid<T>(c: Context, target: 'json' | 'query'): T {
  return (c.req as unknown as { valid(t: string): T }).valid(target);
}
