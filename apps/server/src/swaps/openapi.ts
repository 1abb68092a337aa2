import { z } from '@hono/zod-openapi';
import { currencyField, type ERROR_CODES, SWAP_SOURCES, SWAP_STATUSES } from '@token-actions/core';
import { ErrorCode, KEY_EXAMPLE, SIGNATURE_EXAMPLE } from '../docs/components.js';

/** The OpenAPI pieces the swaps routes declare: the credential, the error answers, the shapes. */

/** An OAuth 2.0 bearer token with `scope`. */
export const bearerSecurity = (scope: 'read' | 'write') => [{ oauth2: [scope] }];

export const RateLimit = z
  .object({
    limit: z.number().int().openapi({ example: 600 }),
    remaining: z.number().int().openapi({ example: 599 }),
  })
  .openapi('RateLimit', { description: 'Requests a minute and what is left of the current window' });

export const ErrorB = z
  .object({
    code: ErrorCode,
    message: z.string().openapi({ example: 'amount must be a positive decimal' }),
    rateLimit: RateLimit,
  })
  .openapi('InterfaceBError', {
    description: 'Interface B error: a stable code, a sentence and the rate limit',
  });

type StatusB = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 502 | 503;

/** One real answer per status, shown as the example of its error response. */
const EXAMPLE_B: Record<StatusB, readonly [code: (typeof ERROR_CODES)[number], message: string]> = {
  400: ['INVALID_INPUT', 'invalid request: amount is required'],
  401: ['INVALID_TOKEN', 'the access token is invalid, expired or revoked'],
  403: ['INSUFFICIENT_SCOPE', 'this operation needs the write scope'],
  404: ['SWAP_NOT_FOUND', 'no swap request with this requestId for this client'],
  409: ['QUOTE_EXPIRED', 'quote expired: its blockhash is no longer valid; request a new quote'],
  413: ['INVALID_INPUT', 'request body exceeds 262144 bytes'],
  422: ['INSUFFICIENT_LIQUIDITY', 'pool SOL-USDC is not available'],
  429: ['RATE_LIMITED', 'rate limit of 600 requests a minute reached; retry in 12 s'],
  500: ['INTERNAL', 'the service could not complete the operation; retry shortly'],
  502: ['AGGREGATOR_UNAVAILABLE', 'the aggregator returned a transaction that cannot be read'],
  503: ['STORE_UNAVAILABLE', 'rate limiting is unavailable, retry shortly'],
};

const HEADERS_B: Partial<
  Record<StatusB, Record<string, { description: string; schema: { type: 'string' } }>>
> = {
  401: {
    'WWW-Authenticate': { description: 'RFC 6750 Bearer challenge', schema: { type: 'string' } },
  },
  403: {
    'WWW-Authenticate': {
      description: 'Bearer challenge with error="insufficient_scope"',
      schema: { type: 'string' },
    },
  },
  429: { 'Retry-After': { description: 'Seconds until the window resets', schema: { type: 'string' } } },
};

/** A swaps error answer: `{code, message, rateLimit}` with an example. */
export function errB(status: StatusB, description: string) {
  const [code, message] = EXAMPLE_B[status];
  const headers = HEADERS_B[status];
  return {
    description,
    ...(headers ? { headers } : {}),
    content: {
      'application/json': {
        schema: ErrorB,
        example: { code, message, rateLimit: { limit: 600, remaining: 0 } },
      },
    },
  };
}

/** What every guarded swaps operation can answer besides its own errors. */
export const errorsB = {
  400: errB(400, 'Invalid input; `message` names the problem'),
  401: errB(401, 'Missing, invalid or expired bearer token (WWW-Authenticate: Bearer)'),
  403: errB(403, 'The token lacks the scope (insufficient_scope)'),
  429: errB(429, 'Rate limit reached (Retry-After)'),
  500: errB(500, 'Server error'),
  503: errB(503, 'Token verification or rate limiting is unavailable (fails closed)'),
};
export const extraError = <S extends 404 | 409 | 413 | 422 | 502>(status: S, description: string) =>
  ({ [status]: errB(status, description) }) as Record<S, ReturnType<typeof errB>>;

export const SwapStatus = z.enum(SWAP_STATUSES).openapi('SwapStatus', {
  description: 'prepared (quoted), submitted (sent), landed (finalized), failed or expired',
  example: 'landed',
});

const units = z
  .string()
  .openapi({ description: 'Base units, a decimal integer string', example: '149401047' });
const decimal = z.string().openapi({ description: 'The same amount in whole units', example: '149.401047' });
const Hop = z
  .object({
    pool: z.string().openapi({ example: 'SOL-USDC' }),
    inputToken: currencyField,
    outputToken: currencyField,
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
    inputToken: currencyField,
    outputToken: currencyField,
    inAmount: units,
    inAmountDecimal: decimal,
    outAmount: units,
    outAmountDecimal: decimal,
    minOutAmount: units,
    minOutAmountDecimal: decimal,
    feeAmount: units,
    feeAmountDecimal: decimal,
    priceImpactPct: z
      .string()
      .openapi({ description: 'Percent, e.g. "0.0996" = 0.0996%', example: '0.0996' }),
    slippageBps: z.number().int().openapi({ example: 50 }),
    route: z.array(Hop),
  })
  .openapi('SwapQuote');

export const SwapItem = z
  .object({
    requestId: z.string().openapi({ example: 'swp_01J9Z3' }),
    source: z.enum(SWAP_SOURCES).openapi({ example: 'project' }),
    status: SwapStatus,
    transactionId: z.string().optional().openapi({ example: SIGNATURE_EXAMPLE }),
    account: z.string().openapi({ example: KEY_EXAMPLE }),
    inputToken: currencyField,
    outputToken: currencyField,
    inAmount: units,
    inAmountDecimal: decimal,
    outAmount: units,
    outAmountDecimal: decimal,
    createdAt: z.string().openapi({ format: 'date-time', example: '2025-01-01T12:00:00.000Z' }),
  })
  .openapi('SwapHistoryItem');
