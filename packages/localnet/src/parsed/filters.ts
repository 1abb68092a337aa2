import { getBase58Encoder } from '@solana/kit';
import { fromBase64 } from '@token-actions/core';
import { err, ok, type Result } from 'neverthrow';

/**
 * The account filters of `getProgramAccounts` and `programSubscribe` (agave's `RpcFilterType`),
 * validated as `verify_filters` does and applied as `filter_allows` does.
 */
export type AccountFilter =
  | { readonly kind: 'dataSize'; readonly size: bigint }
  | { readonly kind: 'memcmp'; readonly offset: number; readonly bytes: Uint8Array }
  | { readonly kind: 'tokenAccountState' };

/** The JSON-RPC error a bad filter is answered with (code -32602). */
export interface FilterError {
  readonly code: -32602;
  readonly message: string;
}

export const MAX_FILTERS = 4;
const MAX_DATA_SIZE = 128;
const MAX_DATA_BASE58_SIZE = 175;
const MAX_DATA_BASE64_SIZE = 172;
const TOKEN_ACCOUNT_SIZE = 165;
const MULTISIG_SIZE = 355;
const TOKEN_ACCOUNT_STATE_OFFSET = 108;
const ACCOUNT_TYPE_ACCOUNT = 2;

const invalid = (message: string): FilterError => ({ code: -32602, message });
const base58 = getBase58Encoder();

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isU64(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function memcmpBytes(memcmp: Record<string, unknown>): Result<Uint8Array, FilterError> {
  const { bytes, encoding } = memcmp;
  if (Array.isArray(bytes)) {
    if (!bytes.every((byte) => Number.isInteger(byte) && byte >= 0 && byte <= 255))
      return err(invalid('Invalid params: memcmp bytes must be u8 values'));
    if (bytes.length > MAX_DATA_SIZE) return err(invalid('Invalid param: DataTooLarge'));
    return ok(Uint8Array.from(bytes));
  }
  if (typeof bytes !== 'string') return err(invalid('Invalid params: memcmp needs `bytes`'));
  if (encoding === 'base64') {
    if (bytes.length > MAX_DATA_BASE64_SIZE) return err(invalid('Invalid param: DataTooLarge'));
    const decoded = /^[A-Za-z0-9+/]*={0,2}$/.test(bytes) ? fromBase64(bytes) : undefined;
    if (!decoded) return err(invalid('Invalid param: Base64DecodeError'));
    return decoded.length > MAX_DATA_SIZE ? err(invalid('Invalid param: DataTooLarge')) : ok(decoded);
  }
  // `binary` is the legacy name of base58, the default.
  if (encoding !== undefined && encoding !== null && encoding !== 'base58' && encoding !== 'binary')
    return err(invalid(`Invalid params: unknown memcmp encoding \`${String(encoding).slice(0, 32)}\``));
  if (bytes.length > MAX_DATA_BASE58_SIZE) return err(invalid('Invalid param: DataTooLarge'));
  let decoded: Uint8Array;
  try {
    decoded = new Uint8Array(base58.encode(bytes));
  } catch {
    return err(invalid('Invalid param: Base58DecodeError'));
  }
  return decoded.length > MAX_DATA_SIZE ? err(invalid('Invalid param: DataTooLarge')) : ok(decoded);
}

function parseFilter(value: unknown): Result<AccountFilter, FilterError> {
  if (value === 'tokenAccountState') return ok({ kind: 'tokenAccountState' });
  if (!isObject(value)) return err(invalid('Invalid params: a filter is `{dataSize}` or `{memcmp}`'));
  if ('dataSize' in value) {
    return isU64(value.dataSize)
      ? ok({ kind: 'dataSize', size: BigInt(value.dataSize) })
      : err(invalid('Invalid params: dataSize must be a u64'));
  }
  if ('memcmp' in value && isObject(value.memcmp)) {
    const { offset } = value.memcmp;
    if (!isU64(offset)) return err(invalid('Invalid params: memcmp offset must be a usize'));
    return memcmpBytes(value.memcmp).map((bytes) => ({ kind: 'memcmp', offset, bytes }));
  }
  return err(invalid('Invalid params: a filter is `{dataSize}` or `{memcmp}`'));
}

/** Parses the `filters` field of a config (absent means no filter). */
export function parseAccountFilters(value: unknown): Result<readonly AccountFilter[], FilterError> {
  if (value === undefined || value === null) return ok([]);
  if (!Array.isArray(value)) return err(invalid('Invalid params: filters must be an array'));
  if (value.length > MAX_FILTERS) return err(invalid(`Too many filters provided; max ${MAX_FILTERS}`));
  const filters: AccountFilter[] = [];
  for (const item of value) {
    const parsed = parseFilter(item);
    if (parsed.isErr()) return err(parsed.error);
    filters.push(parsed.value);
  }
  return ok(filters);
}

/** spl-token-2022's `valid_account_data`: an initialized token account, with or without extensions. */
export function isTokenAccountData(data: Uint8Array): boolean {
  if (data.length < TOKEN_ACCOUNT_SIZE || data[TOKEN_ACCOUNT_STATE_OFFSET] === 0) return false;
  if (data.length === TOKEN_ACCOUNT_SIZE) return true;
  return data.length !== MULTISIG_SIZE && data[TOKEN_ACCOUNT_SIZE] === ACCOUNT_TYPE_ACCOUNT;
}

function allows(filter: AccountFilter, data: Uint8Array): boolean {
  switch (filter.kind) {
    case 'dataSize':
      return BigInt(data.length) === filter.size;
    case 'tokenAccountState':
      return isTokenAccountData(data);
    case 'memcmp': {
      const { offset, bytes } = filter;
      if (offset > data.length || data.length - offset < bytes.length) return false;
      for (let i = 0; i < bytes.length; i++) if (data[offset + i] !== bytes[i]) return false;
      return true;
    }
  }
}

/** Every filter must allow the account (an empty list allows all). */
export function accountMatchesFilters(data: Uint8Array, filters: readonly AccountFilter[]): boolean {
  return filters.every((filter) => allows(filter, data));
}
