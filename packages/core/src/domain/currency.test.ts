import { describe, expect, it } from 'vitest';
import { fakeChainCurrencies } from '../testing/fake-chain/bytes.js';
import { parseTokenPair } from './token-pair.js';

describe('tickers as callers write them', () => {
  const currencies = fakeChainCurrencies();

  it('reads a currency in any case, and refuses one the service does not have', () => {
    for (const ticker of ['usdc', 'USDC', 'Usdc', 'proj']) {
      expect(currencies.parse(ticker)._unsafeUnwrap().code).toBe(ticker.toUpperCase());
    }
    const unknown = currencies.parse('usdt')._unsafeUnwrapErr();
    expect(unknown.code).toBe('UNKNOWN_CURRENCY');
    expect(unknown.message).toBe('currency "usdt" is not supported; use one of SOL, USDC, PROJ');
    // The exact lookup stays exact: it reads the service's own codes, not input.
    expect(currencies.byCode('usdc')).toBeUndefined();
  });

  it('reads a token pair in any case', () => {
    const pair = parseTokenPair(currencies, 'sol-Usdc')._unsafeUnwrap();
    expect([pair.input.code, pair.output.code]).toEqual(['SOL', 'USDC']);
    expect(parseTokenPair(currencies, 'sol-sol')._unsafeUnwrapErr().code).toBe('UNKNOWN_TOKEN_PAIR');
  });
});
