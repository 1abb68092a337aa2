import {
  type ChainPort,
  type DomainError,
  type FeeOraclePort,
  PRIORITY_PERCENTILE,
  type PriorityLevel,
  type PublicKey,
  percentile,
} from '@token-actions/core';
import { okAsync, ResultAsync } from 'neverthrow';

export interface FeeOracleConfig {
  readonly chain: Pick<ChainPort, 'getRecentPrioritizationFees'>;
  /** Lowest price (micro-lamports per compute unit) to pay at a level, whatever the recent fees. */
  readonly floors?: Partial<Record<PriorityLevel, bigint>>;
  /** Highest price ever paid, applied after the floors. */
  readonly capMicroLamports?: bigint;
  /** How long recent fees for one account set are reused; default 2000 ms. */
  readonly cacheMs?: number;
  readonly now?: () => number;
}

const CACHE_LIMIT = 1_000;

interface CachedFees {
  readonly at: number;
  readonly fees: ResultAsync<readonly bigint[], DomainError>;
}

/**
 * Prices a priority level at its percentile of the recent prioritization fees paid by
 * transactions that wrote the same accounts (the RPC's getRecentPrioritizationFees).
 */
export function createFeeOracle(config: FeeOracleConfig): FeeOraclePort {
  const cacheMs = config.cacheMs ?? 2_000;
  const now = config.now ?? Date.now;
  const cache = new Map<string, CachedFees>();

  const recentFees = (accounts: readonly PublicKey[]): ResultAsync<readonly bigint[], DomainError> => {
    const key = [...new Set(accounts)].sort().join(',');
    const at = now();
    const hit = cache.get(key);
    if (hit && at - hit.at < cacheMs) return hit.fees;
    // Sharing the pending lookup means a burst of requests costs one RPC call.
    const pending = config.chain
      .getRecentPrioritizationFees(accounts)
      .map((entries) => entries.map((entry) => entry.fee));
    const shared = new ResultAsync(
      (async () => {
        const outcome = await pending;
        if (outcome.isErr()) cache.delete(key);
        return outcome;
      })(),
    );
    if (cache.size >= CACHE_LIMIT) {
      for (const [k, v] of cache) if (at - v.at >= cacheMs) cache.delete(k);
      if (cache.size >= CACHE_LIMIT) cache.clear();
    }
    cache.set(key, { at, fees: shared });
    return shared;
  };

  return {
    computeUnitPrice(level, writableAccounts) {
      const floor = config.floors?.[level] ?? 0n;
      return recentFees(writableAccounts).andThen((fees) => {
        let price = percentile(fees, PRIORITY_PERCENTILE[level]);
        if (price < floor) price = floor;
        if (config.capMicroLamports !== undefined && price > config.capMicroLamports)
          price = config.capMicroLamports;
        return okAsync(price);
      });
    },
  };
}
