import { err, ok, type Result } from 'neverthrow';
import { type DomainError, domainError } from '../errors.js';
import type { PublicKey } from './public-key.js';

export type CurrencyKind = 'native' | 'stable' | 'project';

export interface Currency {
  /** Upper-case ticker as it travels on the wire, e.g. SOL. */
  readonly code: string;
  readonly kind: CurrencyKind;
  readonly decimals: number;
  /** The SPL mint; absent for the native coin. */
  readonly mint?: PublicKey;
  /** Token program owning the mint (classic SPL Token or Token-2022). */
  readonly tokenProgram?: PublicKey;
}

/** The three currencies the service deals in, fixed at start-up from config. */
export class Currencies {
  readonly all: readonly Currency[];
  constructor(
    readonly native: Currency,
    readonly stable: Currency,
    readonly project: Currency,
  ) {
    this.all = [native, stable, project];
    const codes = new Set(this.all.map((c) => c.code));
    if (codes.size !== 3) throw new Error('currency codes must be distinct');
  }

  codes(): string[] {
    return this.all.map((c) => c.code);
  }

  byCode(code: string): Currency | undefined {
    return this.all.find((c) => c.code === code);
  }

  /** A ticker as a caller writes it, in any case: `usdc` (as the routes' paths spell it) or `USDC`. */
  byTicker(ticker: string): Currency | undefined {
    const upper = ticker.toUpperCase();
    return this.all.find((c) => c.code.toUpperCase() === upper);
  }

  /** A ticker in any case (see `byTicker`). */
  parse(value: unknown, field = 'currency'): Result<Currency, DomainError> {
    if (typeof value !== 'string') {
      return err(domainError('UNKNOWN_CURRENCY', `${field} must be one of ${this.codes().join(', ')}`));
    }
    const found = this.byTicker(value);
    return found
      ? ok(found)
      : err(
          domainError(
            'UNKNOWN_CURRENCY',
            `${field} "${value.slice(0, 32)}" is not supported; use one of ${this.codes().join(', ')}`,
          ),
        );
  }
}

export const NATIVE_DECIMALS = 9;
export const LAMPORTS_PER_SOL = 1_000_000_000n;
