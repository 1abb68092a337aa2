import {
  type AggregatorPort,
  type AggregatorQuote,
  type AggregatorSwap,
  type DomainError,
  domainError,
  fromBase64,
  type RoutePlanStep,
} from '@token-actions/core';
import { errAsync, ResultAsync } from 'neverthrow';
import { z } from 'zod';

export interface JupiterAggregatorConfig {
  /** e.g. https://lite-api.jup.ag/swap/v1 (free) or https://api.jup.ag/swap/v1 (with an API key). */
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
  /** Sent as `x-api-key`. */
  readonly apiKey?: string;
  readonly timeoutMs?: number;
}

const uint = z.string().regex(/^\d{1,20}$/, 'must be a decimal integer string');

const QuoteSchema = z.object({
  inputMint: z.string(),
  inAmount: uint,
  outputMint: z.string(),
  outAmount: uint,
  otherAmountThreshold: uint,
  swapMode: z.enum(['ExactIn', 'ExactOut']),
  slippageBps: z.number().int().min(0),
  priceImpactPct: z.string(),
  routePlan: z
    .array(
      z.object({
        swapInfo: z.object({
          ammKey: z.string(),
          label: z.string().optional(),
          inputMint: z.string(),
          outputMint: z.string(),
          inAmount: uint,
          outAmount: uint,
          feeAmount: uint.optional(),
          feeMint: z.string().optional(),
        }),
        percent: z.number().nullable().optional(),
        bps: z.number().optional(),
      }),
    )
    .min(1),
  contextSlot: z.number().optional(),
  timeTaken: z.number().optional(),
});

const SwapSchema = z.object({
  swapTransaction: z.string().min(1),
  lastValidBlockHeight: z.number().int().nonnegative(),
  prioritizationFeeLamports: z.number().int().nonnegative().optional(),
  computeUnitLimit: z.number().int().nonnegative().optional(),
  simulationError: z.unknown().optional(),
});

const ErrorSchema = z.object({ error: z.string().optional(), errorCode: z.string().optional() });

/** Jupiter's routing error codes that mean "this swap has no route": the caller's request cannot be met. */
const NO_ROUTE = new Set([
  'NO_ROUTES_FOUND',
  'COULD_NOT_FIND_ANY_ROUTE',
  'ROUTE_PLAN_DOES_NOT_CONSUME_ALL_THE_AMOUNT',
  'MARKET_NOT_FOUND',
  'TOKEN_NOT_TRADABLE',
  'CIRCULAR_ARBITRAGE_IS_DISABLED',
]);
/** Codes about the request's values. */
const BAD_REQUEST = new Set(['NOT_SUPPORTED', 'CANNOT_COMPUTE_OTHER_AMOUNT_THRESHOLD']);

/** Maps a Jupiter error response (`{error, errorCode}`, any status) to a domain error. */
export function jupiterError(status: number, body: unknown): DomainError {
  const parsed = ErrorSchema.safeParse(body);
  const code = parsed.success ? parsed.data.errorCode : undefined;
  const text = (parsed.success ? parsed.data.error : undefined)?.slice(0, 200);
  const detail = `${text ?? `HTTP ${status}`}${code ? ` (${code})` : ''}`;
  const context = { status, ...(code ? { errorCode: code } : {}) };
  if (status === 429)
    return domainError('AGGREGATOR_UNAVAILABLE', 'the aggregator is rate limiting; retry shortly', {
      context,
    });
  if (code && NO_ROUTE.has(code))
    return domainError('AGGREGATOR_NO_ROUTE', `aggregator: ${detail}`, { context });
  if ((code && BAD_REQUEST.has(code)) || (status >= 400 && status < 500 && !code)) {
    return domainError('INVALID_INPUT', `aggregator rejected the request: ${detail}`, { context });
  }
  return domainError('AGGREGATOR_UNAVAILABLE', `the aggregator failed: ${detail}`, { context });
}

function toQuote(raw: z.infer<typeof QuoteSchema>, original: unknown): AggregatorQuote {
  const routePlan: RoutePlanStep[] = raw.routePlan.map((step) => ({
    swapInfo: {
      ammKey: step.swapInfo.ammKey,
      label: step.swapInfo.label ?? '',
      inputMint: step.swapInfo.inputMint,
      outputMint: step.swapInfo.outputMint,
      inAmount: BigInt(step.swapInfo.inAmount),
      outAmount: BigInt(step.swapInfo.outAmount),
      feeAmount: BigInt(step.swapInfo.feeAmount ?? '0'),
      feeMint: step.swapInfo.feeMint ?? step.swapInfo.inputMint,
    },
    percent: step.percent ?? 100,
  }));
  return {
    inputMint: raw.inputMint,
    inAmount: BigInt(raw.inAmount),
    outputMint: raw.outputMint,
    outAmount: BigInt(raw.outAmount),
    otherAmountThreshold: BigInt(raw.otherAmountThreshold),
    swapMode: 'ExactIn',
    slippageBps: raw.slippageBps,
    priceImpactPct: raw.priceImpactPct,
    routePlan,
    ...(raw.contextSlot !== undefined ? { contextSlot: raw.contextSlot } : {}),
    ...(raw.timeTaken !== undefined ? { timeTaken: raw.timeTaken } : {}),
    raw: original,
  };
}

/** The quote as Jupiter's /swap expects `quoteResponse`: the object /quote returned, untouched. */
function quoteResponseOf(quote: AggregatorQuote): unknown {
  if (quote.raw !== undefined) return quote.raw;
  return {
    inputMint: quote.inputMint,
    inAmount: quote.inAmount.toString(),
    outputMint: quote.outputMint,
    outAmount: quote.outAmount.toString(),
    otherAmountThreshold: quote.otherAmountThreshold.toString(),
    swapMode: quote.swapMode,
    slippageBps: quote.slippageBps,
    priceImpactPct: quote.priceImpactPct,
    routePlan: quote.routePlan.map((s) => ({
      swapInfo: {
        ...s.swapInfo,
        inAmount: s.swapInfo.inAmount.toString(),
        outAmount: s.swapInfo.outAmount.toString(),
        feeAmount: s.swapInfo.feeAmount.toString(),
      },
      percent: s.percent,
    })),
  };
}

/**
 * Jupiter's Swap API (`GET /quote`, `POST /swap`) over HTTP. Requests and responses use Jupiter's
 * documented fields; its error bodies (`{error, errorCode}`) become domain errors: routing failures
 * AGGREGATOR_NO_ROUTE, bad values INVALID_INPUT, everything else (429, 5xx, timeouts, unreadable
 * answers) AGGREGATOR_UNAVAILABLE.
 */
export function createJupiterAggregator(config: JupiterAggregatorConfig): AggregatorPort {
  const base = config.baseUrl.replace(/\/+$/, '');
  const timeoutMs = config.timeoutMs ?? 10_000;

  function call(path: string, init: RequestInit): ResultAsync<unknown, DomainError> {
    return ResultAsync.fromPromise(
      (async () => {
        const res = await config.fetch(`${base}${path}`, {
          ...init,
          headers: {
            accept: 'application/json',
            ...(init.body ? { 'content-type': 'application/json' } : {}),
            ...(config.apiKey ? { 'x-api-key': config.apiKey } : {}),
          },
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await res.text();
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        if (!res.ok) throw jupiterError(res.status, body);
        return body;
      })(),
      (error) =>
        (error as DomainError)?.code
          ? (error as DomainError)
          : domainError('AGGREGATOR_UNAVAILABLE', 'the aggregator could not be reached', { cause: error }),
    );
  }

  const unreadable = (what: string) =>
    domainError('AGGREGATOR_UNAVAILABLE', `the aggregator returned an unreadable ${what}`);

  return {
    name: 'jupiter',
    quote(request) {
      const query = new URLSearchParams({
        inputMint: request.inputMint,
        outputMint: request.outputMint,
        amount: request.amount.toString(),
        slippageBps: String(request.slippageBps),
        swapMode: 'ExactIn',
      });
      return call(`/quote?${query}`, { method: 'GET' }).andThen((body) => {
        const parsed = QuoteSchema.safeParse(body);
        if (!parsed.success || parsed.data.swapMode !== 'ExactIn') return errAsync(unreadable('quote'));
        return ResultAsync.fromSafePromise(Promise.resolve(toQuote(parsed.data, body)));
      });
    },
    swap(request) {
      return call('/swap', {
        method: 'POST',
        body: JSON.stringify({
          userPublicKey: request.userPublicKey,
          quoteResponse: quoteResponseOf(request.quote),
          wrapAndUnwrapSol: true,
          dynamicComputeUnitLimit: true,
        }),
      }).andThen((body) => {
        const parsed = SwapSchema.safeParse(body);
        if (!parsed.success) return errAsync(unreadable('swap transaction'));
        if (parsed.data.simulationError !== undefined && parsed.data.simulationError !== null) {
          return errAsync(
            domainError('SIMULATION_FAILED', 'the aggregator’s swap transaction fails in simulation'),
          );
        }
        const wire = fromBase64(parsed.data.swapTransaction);
        if (!wire || wire.length < 66) return errAsync(unreadable('swap transaction'));
        const swap: AggregatorSwap = {
          swapTransaction: wire,
          lastValidBlockHeight: BigInt(parsed.data.lastValidBlockHeight),
          ...(parsed.data.prioritizationFeeLamports !== undefined
            ? { prioritizationFeeLamports: BigInt(parsed.data.prioritizationFeeLamports) }
            : {}),
          ...(parsed.data.computeUnitLimit !== undefined
            ? { computeUnitLimit: parsed.data.computeUnitLimit }
            : {}),
          quote: request.quote,
          recorded: false,
        };
        return ResultAsync.fromSafePromise(Promise.resolve(swap));
      });
    },
  };
}
