import { err, ok, type Result } from 'neverthrow';
import { type DomainError, domainError } from '../errors.js';

export const PRIORITY_LEVELS = ['Min', 'Low', 'Medium', 'High', 'VeryHigh'] as const;
export type PriorityLevel = (typeof PRIORITY_LEVELS)[number];

/** The percentile of recent prioritization fees each level pays (the common estimator convention). */
export const PRIORITY_PERCENTILE: Record<PriorityLevel, number> = {
  Min: 0,
  Low: 25,
  Medium: 50,
  High: 75,
  VeryHigh: 95,
};

export function parsePriority(value: unknown): Result<PriorityLevel, DomainError> {
  if (typeof value === 'string' && (PRIORITY_LEVELS as readonly string[]).includes(value)) {
    return ok(value as PriorityLevel);
  }
  return err(
    domainError(
      'UNKNOWN_PRIORITY',
      `priority must be one of ${PRIORITY_LEVELS.join(', ')}${typeof value === 'string' ? `, got "${value.slice(0, 32)}"` : ''}`,
    ),
  );
}

/**
 * Nearest-rank percentile over micro-lamport prices. Empty input prices at zero: with no recent
 * fees there is no competition to outbid.
 */
export function percentile(values: readonly bigint[], p: number): bigint {
  if (values.length === 0) return 0n;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (p <= 0) return sorted[0]!;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}
