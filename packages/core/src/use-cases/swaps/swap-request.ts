import { ok, type ResultAsync, safeTry } from 'neverthrow';
import { z } from 'zod';
import { parseTokenPair } from '../../domain/token-pair.js';
import { type DomainError, domainError } from '../../errors.js';
import { tokenPairField } from '../payments/request-fields.js';
import type { SwapCaller, SwapDeps } from './deps.js';
import { type BuiltSwap, parseSwapRequest, reserveAndBuild } from './firm-quote.js';

/** The body of POST /project/swap and POST /aggregator/swap. */
export const SwapRequest = z
  .strictObject({
    tokenPair: tokenPairField,
    amount: z.string().meta({ description: 'Input amount in whole units, a decimal string', example: '1.5' }),
    slippageBps: z.number().int().optional().meta({ description: '0-5000, default 50', example: 50 }),
    account: z.string().optional().meta({
      description: "Wallet that swaps and signs; the token's wallet by default",
      example: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
    }),
  })
  .meta({ id: 'SwapRequest' });
export type SwapRequest = z.infer<typeof SwapRequest>;

/**
 * POST /project/swap: a firm quote from the project's pool. Its output is reserved in the pool
 * book, and the transaction settling it is built now: two transfers (user -> pool vault, pool vault
 * -> user), fee paid and presigned by the pool authority, so `transactionId` is already known. The
 * user signs the returned transaction and hands it to `executeSwap`.
 */
export function projectSwap(
  deps: Pick<
    SwapDeps,
    'currencies' | 'swaps' | 'chain' | 'keystore' | 'fees' | 'clock' | 'ids' | 'swapPolicies'
  >,
  input: SwapRequest,
  caller: SwapCaller,
): ResultAsync<BuiltSwap, DomainError> {
  return safeTry(async function* () {
    const { pair, amount, slippageBps, user } = yield* parseSwapRequest(deps, input, caller, (v) =>
      parseTokenPair(deps.currencies, v).mapErr((e) =>
        e.code === 'INVALID_PARAMETERS' ? domainError('INVALID_INPUT', e.message) : e,
      ),
    );
    const now = deps.clock.now();
    const built = yield* reserveAndBuild(deps, {
      request: {
        requestId: deps.ids.next('swp'),
        source: 'project',
        provider: 'pool',
        clientId: caller.clientId,
        user,
        inputToken: pair.input.code,
        outputToken: pair.output.code,
        inAmount: amount,
        slippageBps,
        expiresAt: new Date(now.getTime() + deps.swapPolicies.quoteTtlMs),
      },
      path: [pair.input.code, pair.output.code],
      feePayer: 'pool',
    });
    return ok(built);
  });
}
