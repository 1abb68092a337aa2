import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { parseAmount } from '../../domain/money.js';
import { type PublicKey, parsePublicKey } from '../../domain/public-key.js';
import { parseTokenPair, type TokenPair } from '../../domain/token-pair.js';
import { type DomainError, domainError } from '../../errors.js';
import { tokenPairField } from '../payments/request-fields.js';
import type { SwapDeps } from './deps.js';

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
 * Parses the common fields of a swap request body. A pair the body names wrongly is bad input
 * (400), where the same mistake in GET /project/swap's query is INVALID_PARAMETERS (422).
 */
export function parseSwapRequest(
  deps: Pick<SwapDeps, 'currencies' | 'swapPolicies'>,
  input: { tokenPair: unknown; amount: unknown; slippageBps?: unknown; account?: unknown },
  caller: { subject: PublicKey },
): Result<{ pair: TokenPair; amount: bigint; slippageBps: number; user: PublicKey }, DomainError> {
  const pair = parseTokenPair(deps.currencies, input.tokenPair).mapErr((e) =>
    e.code === 'INVALID_PARAMETERS' ? domainError('INVALID_INPUT', e.message) : e,
  );
  return pair.andThen((pair) =>
    parseAmount(input.amount, pair.input).andThen((amount) =>
      parseSlippage(deps, input.slippageBps).andThen((slippageBps) =>
        (input.account === undefined ? ok(caller.subject) : parsePublicKey(input.account, 'account'))
          .andThen((user) => (user === caller.subject ? ok(user) : err(notCallersWallet())))
          .map((user) => ({ pair, amount, slippageBps, user })),
      ),
    ),
  );
}

/**
 * A swap is built for the wallet the access token speaks for and no other: a quote for someone
 * else's wallet could only be a way to hold a pool's liquidity with no intention to sign.
 */
function notCallersWallet(): DomainError {
  return domainError(
    'ACCOUNT_NOT_CALLER',
    'account must be the wallet this access token was issued for; leave it out to use that wallet',
  );
}

export function parseSlippage(
  deps: Pick<SwapDeps, 'swapPolicies'>,
  value: unknown,
): Result<number, DomainError> {
  if (value === undefined) return ok(deps.swapPolicies.defaultSlippageBps);
  const max = deps.swapPolicies.maxSlippageBps;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    return err(
      domainError('INVALID_INPUT', `slippageBps must be a whole number of basis points from 0 to ${max}`),
    );
  }
  return ok(value);
}
