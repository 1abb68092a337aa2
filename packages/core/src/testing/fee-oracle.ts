import { okAsync } from 'neverthrow';
import type { PriorityLevel } from '../domain/priority.js';
import type { PublicKey } from '../domain/public-key.js';
import type { FeeOraclePort } from '../ports/fee-oracle.js';

export interface FakeFeeOracle extends FeeOraclePort {
  /** Every call, in order, so a test can check which accounts were priced. */
  readonly calls: readonly { level: PriorityLevel; writableAccounts: readonly PublicKey[] }[];
  setPrice(level: PriorityLevel, microLamports: bigint): void;
}

/** Micro-lamport prices that rise with the level, so a test can tell the levels apart. */
export const FAKE_PRIORITY_PRICES: Readonly<Record<PriorityLevel, bigint>> = {
  Min: 0n,
  Low: 100n,
  Medium: 1_000n,
  High: 10_000n,
  VeryHigh: 100_000n,
};

/** A fee oracle answering fixed prices per level. */
export function createFakeFeeOracle(prices: Partial<Record<PriorityLevel, bigint>> = {}): FakeFeeOracle {
  const table: Record<PriorityLevel, bigint> = { ...FAKE_PRIORITY_PRICES, ...prices };
  const calls: { level: PriorityLevel; writableAccounts: readonly PublicKey[] }[] = [];
  return {
    calls,
    setPrice(level, microLamports) {
      table[level] = microLamports;
    },
    computeUnitPrice(level, writableAccounts) {
      calls.push({ level, writableAccounts: [...writableAccounts] });
      return okAsync(table[level]);
    },
  };
}
