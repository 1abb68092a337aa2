import { describe, expect, it } from 'vitest';
import { toJson } from './json.js';
import { uiTokenAmount } from './token-amount.js';

// The cases of agave's account-decoder `test_ui_token_amount_real_string` and `..._zero`.
describe('uiTokenAmount (agave token_amount_to_ui_amount)', () => {
  it.each([
    [1n, 0, '1', 1],
    [10n, 0, '10', 10],
    [1n, 9, '0.000000001', 0.000000001],
    [1_000_000_000n, 9, '1', 1],
    [1_234_567_890n, 3, '1234567.89', 1234567.89],
    [0n, 0, '0', 0],
    [0n, 9, '0', 0],
    [42n, 2, '0.42', 0.42],
  ])('%s base units at %s decimals', (amount, decimals, text, ui) => {
    expect(uiTokenAmount(amount, decimals)).toEqual({
      uiAmount: ui,
      decimals,
      amount: amount.toString(),
      uiAmountString: text,
    });
  });

  it('has no float past 19 decimals, where the RPC has none either, but keeps the exact string', () => {
    expect(uiTokenAmount(1_234_567_890n, 20)).toEqual({
      uiAmount: null,
      decimals: 20,
      amount: '1234567890',
      uiAmountString: '0.0000000000123456789',
    });
    expect(uiTokenAmount(0n, 20).uiAmountString).toBe('0');
  });

  it('renders u64::MAX exactly in the string and as the nearest float', () => {
    const max = 18_446_744_073_709_551_615n;
    const amount = uiTokenAmount(max, 6);
    expect(amount.uiAmountString).toBe('18446744073709.551615');
    expect(amount.amount).toBe('18446744073709551615');
    expect(amount.uiAmount).toBe(18446744073709.55);
  });
});

describe('toJson', () => {
  it('writes bigints as integers and leaves undefined fields out', () => {
    expect(toJson({ a: 18_446_744_073_709_551_615n, b: undefined, c: [1, 'x', null], d: { e: true } })).toBe(
      '{"a":18446744073709551615,"c":[1,"x",null],"d":{"e":true}}',
    );
  });
});
