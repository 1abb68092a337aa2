import { err, ok, type Result } from 'neverthrow';
import { type DomainError, domainError } from '../errors.js';
import type { Currency } from './currency.js';

export const U64_MAX = (1n << 64n) - 1n;

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Parses a decimal string into base units of the currency. Amounts are never floats: the string
 * is split at the point and both halves are read as integers.
 */
export function parseAmount(
  value: unknown,
  currency: Pick<Currency, 'code' | 'decimals'>,
  field = 'amount',
): Result<bigint, DomainError> {
  if (typeof value !== 'string') {
    return err(
      domainError('INVALID_AMOUNT', `${field} must be a string holding a decimal number, e.g. "1.5"`),
    );
  }
  if (value.length === 0) return err(domainError('INVALID_AMOUNT', `${field} must not be empty`));
  if (value.length > 64) return err(domainError('INVALID_AMOUNT', `${field} is too long`));
  if (/[eE]/.test(value) && /^[-+]?[\d.]+[eE][-+]?\d+$/.test(value)) {
    return err(
      domainError('INVALID_AMOUNT', `${field} must be a plain decimal; exponent notation is not accepted`),
    );
  }
  if (value.startsWith('-')) {
    return err(domainError('INVALID_AMOUNT', `${field} must be positive`));
  }
  const match = DECIMAL.exec(value);
  if (!match) {
    return err(domainError('INVALID_AMOUNT', `${field} "${value.slice(0, 32)}" is not a decimal number`));
  }
  const whole = match[1]!;
  const fraction = match[2] ?? '';
  if (fraction.length > currency.decimals) {
    return err(
      domainError(
        'INVALID_AMOUNT',
        `${field} has ${fraction.length} decimal places; ${currency.code} allows at most ${currency.decimals}`,
      ),
    );
  }
  const units =
    BigInt(whole) * 10n ** BigInt(currency.decimals) + BigInt(fraction.padEnd(currency.decimals, '0') || '0');
  if (units === 0n) return err(domainError('INVALID_AMOUNT', `${field} must be greater than zero`));
  if (units > U64_MAX) {
    return err(
      domainError('INVALID_AMOUNT', `${field} exceeds the largest amount a token account can hold (u64)`),
    );
  }
  return ok(units);
}

/** Formats base units as a decimal string without trailing zeros ("1.5", "2"). */
export function formatAmount(units: bigint, decimals: number): string {
  const negative = units < 0n;
  // On the digits, not by bigint division: every quote renders a dozen amounts.
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const wholeEnd = digits.length - decimals;
  let end = digits.length;
  while (end > wholeEnd && digits.charCodeAt(end - 1) === 48 /* '0' */) end--;
  const whole = digits.slice(0, wholeEnd);
  return `${negative ? '-' : ''}${whole}${end > wholeEnd ? `.${digits.slice(wholeEnd, end)}` : ''}`;
}
