import { encodeBase58, toBase64 } from '@token-actions/core';
import { describe, expect, it } from 'vitest';
import { accountMatchesFilters, isTokenAccountData, parseAccountFilters } from './filters.js';

const data = Uint8Array.from([1, 2, 3, 4, 5]);
const b58 = (bytes: number[]) => encodeBase58(Uint8Array.from(bytes));

function matches(filters: unknown, bytes: Uint8Array = data): boolean {
  return accountMatchesFilters(bytes, parseAccountFilters(filters)._unsafeUnwrap());
}

// The cases of agave's rpc-client-api `test_bytes_match`, then the shapes clients send.
describe('memcmp', () => {
  it('matches whole, partial and offset prefixes, and refuses overruns and offsets past the end', () => {
    expect(matches([{ memcmp: { offset: 0, bytes: b58([1, 2, 3, 4, 5]) } }])).toBe(true);
    expect(matches([{ memcmp: { offset: 0, bytes: b58([1, 2]) } }])).toBe(true);
    expect(matches([{ memcmp: { offset: 2, bytes: b58([3, 4]) } }])).toBe(true);
    expect(matches([{ memcmp: { offset: 0, bytes: b58([2]) } }])).toBe(false);
    expect(matches([{ memcmp: { offset: 2, bytes: b58([3, 4, 5, 6]) } }])).toBe(false);
    expect(matches([{ memcmp: { offset: 6, bytes: b58([5]) } }])).toBe(false);
    expect(matches([{ memcmp: { offset: 5, bytes: '' } }])).toBe(true);
  });

  it('reads base58 (the default, also called binary), base64 and raw byte arrays', () => {
    expect(matches([{ memcmp: { offset: 1, bytes: b58([2, 3, 4]), encoding: 'base58' } }])).toBe(true);
    expect(matches([{ memcmp: { offset: 1, bytes: b58([2, 3, 4]), encoding: 'binary' } }])).toBe(true);
    expect(
      matches([{ memcmp: { offset: 1, bytes: toBase64(Uint8Array.from([2, 3])), encoding: 'base64' } }]),
    ).toBe(true);
    expect(matches([{ memcmp: { offset: 3, bytes: [4, 5] } }])).toBe(true);
    expect(matches([{ memcmp: { offset: 3, bytes: [4, 6] } }])).toBe(false);
  });

  it('refuses what agave verify_filters refuses, with its messages', () => {
    const error = (filters: unknown) => parseAccountFilters(filters)._unsafeUnwrapErr();
    expect(error([{ memcmp: { offset: 0, bytes: '1'.repeat(129) } }])).toEqual({
      code: -32602,
      message: 'Invalid param: DataTooLarge',
    });
    expect(error([{ memcmp: { offset: 0, bytes: '1'.repeat(176) } }]).message).toBe(
      'Invalid param: DataTooLarge',
    );
    expect(error([{ memcmp: { offset: 0, bytes: 'III' } }]).message).toBe('Invalid param: Base58DecodeError');
    expect(error([{ memcmp: { offset: 0, bytes: '@@', encoding: 'base64' } }]).message).toBe(
      'Invalid param: Base64DecodeError',
    );
    expect(
      error([{ dataSize: 1 }, { dataSize: 1 }, { dataSize: 1 }, { dataSize: 1 }, { dataSize: 1 }]),
    ).toEqual({
      code: -32602,
      message: 'Too many filters provided; max 4',
    });
    expect(error([{ memcmp: { offset: -1, bytes: '1' } }]).code).toBe(-32602);
    expect(error([{ dataSize: 'x' }]).code).toBe(-32602);
    expect(error({ dataSize: 1 }).code).toBe(-32602);
    // 128 ones decode to 128 zero bytes: at the limit, accepted.
    expect(parseAccountFilters([{ memcmp: { offset: 0, bytes: '1'.repeat(128) } }]).isOk()).toBe(true);
  });
});

describe('dataSize and tokenAccountState', () => {
  it('compares the whole data length', () => {
    expect(matches([{ dataSize: 5 }])).toBe(true);
    expect(matches([{ dataSize: 4 }])).toBe(false);
    expect(matches([])).toBe(true);
    expect(matches(undefined)).toBe(true);
    expect(matches([{ dataSize: 5 }, { memcmp: { offset: 0, bytes: b58([2]) } }])).toBe(false);
  });

  it('knows an initialized token account, with or without extensions, from a mint or a multisig', () => {
    const account = new Uint8Array(165);
    expect(isTokenAccountData(account)).toBe(false); // uninitialized
    account[108] = 1;
    expect(isTokenAccountData(account)).toBe(true);
    const withExtensions = new Uint8Array(170);
    withExtensions[108] = 1;
    withExtensions[165] = 2;
    expect(isTokenAccountData(withExtensions)).toBe(true);
    withExtensions[165] = 1; // a mint's account type
    expect(isTokenAccountData(withExtensions)).toBe(false);
    const multisig = new Uint8Array(355);
    multisig[108] = 1;
    multisig[165] = 2;
    expect(isTokenAccountData(multisig)).toBe(false);
    expect(matches(['tokenAccountState'], account)).toBe(true);
    expect(matches(['tokenAccountState'], new Uint8Array(82))).toBe(false);
  });
});
