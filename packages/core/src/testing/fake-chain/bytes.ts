import { encodeBase58 } from '../../domain/base58.js';
import { Currencies, type Currency } from '../../domain/currency.js';
import type { PublicKey } from '../../domain/public-key.js';

const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' as PublicKey;

/** 32 bytes, recognisable in a debugger: a tag byte, a counter, then filler. */
export function fakeBytes(length: number, tag: number, n: bigint): Uint8Array {
  const bytes = new Uint8Array(length).fill(tag);
  let rest = n;
  for (let i = 1; i < 9; i++) {
    bytes[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return bytes;
}

export function fakeKey(tag: number, n: bigint): PublicKey {
  return encodeBase58(fakeBytes(32, tag, n)) as PublicKey;
}

export function fakeChainCurrencies(): Currencies {
  return new Currencies(
    { code: 'SOL', kind: 'native', decimals: 9 },
    { code: 'USDC', kind: 'stable', decimals: 6, mint: fakeKey(0xc1, 1n), tokenProgram: TOKEN_PROGRAM },
    { code: 'PROJ', kind: 'project', decimals: 9, mint: fakeKey(0xc1, 2n), tokenProgram: TOKEN_PROGRAM },
  );
}

/** How the fake's balance book names a currency: its mint, or a tag for the native one. */
export function currencyKey(currency: Currency): string {
  return currency.mint ?? `native:${currency.code}`;
}
