import { err, ok, type ResultAsync, safeTry } from 'neverthrow';
import { poolIdOf } from '../../domain/token-pair.js';
import { type DomainError, domainError } from '../../errors.js';
import type { SwapDeps } from './deps.js';

export interface PoolSeed {
  readonly tokenA: string;
  readonly tokenB: string;
  /** Base units deposited into the vaults and booked as the reserves. */
  readonly reserveA: bigint;
  readonly reserveB: bigint;
  readonly feeBps: number;
}

/** The name a pool authority's key is held under in the keystore. */
export const poolAuthorityName = (poolId: string) => `pool:${poolId}`;

/**
 * Opens the configured pools that are not open yet: the pool authority's key comes from the
 * keystore, its vaults are funded on the chain (the localnet's faucet) with the reserves plus
 * `feeBufferLamports` (the authority pays the fees and recipients' account rent of firm-quote
 * swaps), then the pool is booked. Pools already booked are left as they are.
 */
export function seedPools(
  deps: Pick<SwapDeps, 'chain' | 'keystore' | 'swaps' | 'currencies'>,
  seeds: readonly PoolSeed[],
  options: { readonly feeBufferLamports: bigint },
): ResultAsync<{ created: readonly string[] }, DomainError> {
  return safeTry(async function* () {
    const created: string[] = [];
    for (const seed of seeds) {
      const a = deps.currencies.byCode(seed.tokenA);
      const b = deps.currencies.byCode(seed.tokenB);
      if (!a || !b || a === b)
        return err(
          domainError('INVALID_INPUT', `pool ${seed.tokenA}-${seed.tokenB} names unknown currencies`),
        );
      const id = poolIdOf(deps.currencies, a, b);
      const reserveOf = (code: string) => (code === a.code ? seed.reserveA : seed.reserveB);
      const existing = yield* deps.swaps.getPool(id);
      if (existing) continue;
      const authority = yield* deps.keystore.named(poolAuthorityName(id));
      const [codeA, codeB] = id.split('-') as [string, string];
      const currencyA = deps.currencies.byCode(codeA)!;
      const currencyB = deps.currencies.byCode(codeB)!;
      yield* deps.chain.airdrop(authority, currencyA, reserveOf(codeA));
      yield* deps.chain.airdrop(authority, currencyB, reserveOf(codeB));
      if (options.feeBufferLamports > 0n)
        yield* deps.chain.airdrop(authority, deps.currencies.native, options.feeBufferLamports);
      const booked = yield* deps.swaps.ensurePool({
        id,
        tokenA: codeA,
        tokenB: codeB,
        reserveA: reserveOf(codeA),
        reserveB: reserveOf(codeB),
        feeBps: seed.feeBps,
        authority,
      });
      if (booked.created) created.push(id);
    }
    return ok({ created });
  });
}
