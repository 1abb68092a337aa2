import { err, ok, type Result } from 'neverthrow';
import { type DomainError, domainError } from '../errors.js';
import type { Currencies, Currency } from './currency.js';

/** A direction of trade: sell `input`, buy `output`. Written `INPUT-OUTPUT` on the wire. */
export interface TokenPair {
  readonly input: Currency;
  readonly output: Currency;
}

/**
 * Reads `tokenPair` ("SOL-USDC", tickers in any case). A missing value is a missing parameter (INVALID_PARAMETERS, 422 on
 * GET); a value that is not two supported, distinct tickers joined by a hyphen is UNKNOWN_TOKEN_PAIR.
 */
export function parseTokenPair(currencies: Currencies, value: unknown): Result<TokenPair, DomainError> {
  if (value === undefined || value === null || value === '') {
    return err(domainError('INVALID_PARAMETERS', 'tokenPair is required, e.g. "SOL-USDC"'));
  }
  if (typeof value !== 'string') {
    return err(domainError('UNKNOWN_TOKEN_PAIR', 'tokenPair must be a string such as "SOL-USDC"'));
  }
  // Spelled out only for an error: every quote and swap parses a pair.
  const pairs = () =>
    currencies.all.flatMap((a) => currencies.all.filter((b) => b !== a).map((b) => `${a.code}-${b.code}`));
  const parts = value.split('-');
  if (parts.length !== 2 || !parts[0] || !parts[1]) {
    return err(
      domainError(
        'UNKNOWN_TOKEN_PAIR',
        `tokenPair "${value.slice(0, 32)}" is malformed: write two tickers joined by a hyphen, one of ${pairs().join(', ')}`,
      ),
    );
  }
  const input = currencies.byTicker(parts[0]);
  const output = currencies.byTicker(parts[1]);
  if (!input || !output || input === output) {
    return err(
      domainError(
        'UNKNOWN_TOKEN_PAIR',
        `tokenPair "${value.slice(0, 32)}" is not supported; use one of ${pairs().join(', ')}`,
      ),
    );
  }
  return ok({ input, output });
}

/** The id of the pool trading two currencies: tickers in the order native, stable, project. */
export function poolIdOf(currencies: Currencies, a: Currency, b: Currency): string {
  const [first, second] = currencies.all.indexOf(a) < currencies.all.indexOf(b) ? [a, b] : [b, a];
  return `${first.code}-${second.code}`;
}

/** Every pool the service runs: one per pair of its three currencies. */
export function allPoolIds(currencies: Currencies): string[] {
  const [n, s, p] = currencies.all as [Currency, Currency, Currency];
  return [poolIdOf(currencies, n, s), poolIdOf(currencies, n, p), poolIdOf(currencies, s, p)];
}
