import type { ResultAsync } from 'neverthrow';
import type { PriorityLevel } from '../domain/priority.js';
import type { PublicKey } from '../domain/public-key.js';
import type { DomainError } from '../errors.js';

export interface FeeOraclePort {
  /** Compute-unit price (micro-lamports) for a priority level, from recent prioritization fees
   * paid by transactions that wrote to `writableAccounts`. */
  computeUnitPrice(
    level: PriorityLevel,
    writableAccounts: readonly PublicKey[],
  ): ResultAsync<bigint, DomainError>;
}
