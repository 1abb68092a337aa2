import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAmount, parseAmount, U64_MAX } from './money.js';

const SOL = { code: 'SOL', decimals: 9 };
const USDC = { code: 'USDC', decimals: 6 };

describe('parseAmount', () => {
  it.each([
    ['1', 1_000_000_000n],
    ['1.5', 1_500_000_000n],
    ['0.000000001', 1n],
    ['18446744073.709551615', U64_MAX],
    ['007.25', 7_250_000_000n],
  ])('reads %s SOL as %s lamports', (input, expected) => {
    expect(parseAmount(input, SOL)._unsafeUnwrap()).toBe(expected);
  });

  it.each([
    ['abc', 'not a decimal number'],
    ['-1', 'must be positive'],
    ['0', 'greater than zero'],
    ['0.000', 'greater than zero'],
    ['1e3', 'exponent'],
    ['1E-3', 'exponent'],
    ['1.0000001', 'at most 6'],
    ['', 'must not be empty'],
    [' 1', 'not a decimal number'],
    ['1.', 'not a decimal number'],
    ['.5', 'not a decimal number'],
    ['0x10', 'not a decimal number'],
    ['18446744073709.551616', 'u64'],
    ['Infinity', 'not a decimal number'],
  ])('rejects %j (%s)', (input, fragment) => {
    const error = parseAmount(input, USDC)._unsafeUnwrapErr();
    expect(error.code).toBe('INVALID_AMOUNT');
    expect(error.message).toContain(fragment);
  });

  it('rejects non-strings, naming the expected form', () => {
    for (const v of [1.5, null, undefined, {}, [], true]) {
      expect(parseAmount(v, SOL)._unsafeUnwrapErr().message).toContain('must be a string');
    }
  });

  it('round-trips every u64 through format and parse', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: U64_MAX }),
        fc.integer({ min: 0, max: 12 }),
        (units, decimals) => {
          const currency = { code: 'X', decimals };
          expect(parseAmount(formatAmount(units, decimals), currency)._unsafeUnwrap()).toBe(units);
        },
      ),
    );
  });
});

describe('formatAmount', () => {
  it('drops trailing zeros and keeps the sign', () => {
    expect(formatAmount(1_500_000_000n, 9)).toBe('1.5');
    expect(formatAmount(2_000_000n, 6)).toBe('2');
    expect(formatAmount(-1n, 6)).toBe('-0.000001');
    expect(formatAmount(5n, 0)).toBe('5');
  });
});
