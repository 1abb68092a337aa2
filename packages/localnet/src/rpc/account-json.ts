import { type AccountReader, encodeAccount } from '../parsed/account.js';
import type { LocalAccount } from '../types.js';
import { accountJson, type DataSlice } from './encoding.js';

/** Reads accounts for the jsonParsed encoders (a token account's mint, for its decimals). */
export function accountReader(account: (address: string) => LocalAccount | null): AccountReader {
  return (address) => account(address) ?? undefined;
}

/** An account in the encoding asked for; `jsonParsed` parses system (nonce), SPL Token and
 * Token-2022 accounts (with their extensions) and falls back to base64 for anything else. */
export function encodedAccount(
  read: AccountReader,
  account: LocalAccount,
  encoding: unknown,
  slice?: DataSlice,
) {
  if (encoding !== 'jsonParsed') return accountJson(account, encoding, slice);
  return encodeAccount(account, 'jsonParsed', { readAccount: read, ...(slice ? { dataSlice: slice } : {}) });
}
