import { encodeBase58, toBase64 } from '@token-actions/core';
import { parseNonce } from './nonce.js';
import {
  isTokenProgram,
  NATIVE_MINT,
  NATIVE_MINT_DECIMALS,
  SYSTEM_PROGRAM_ID,
  TOKEN_2022_PROGRAM_ID,
} from './program-ids.js';
import { parseTokenState, unpackTokenMint } from './token-state.js';

/** An account as the localnet stores it. */
export interface AccountState {
  readonly lamports: bigint;
  readonly owner: string;
  readonly data: Uint8Array;
  readonly executable: boolean;
  /** Default u64::MAX, what the RPC shows for rent-exempt accounts. */
  readonly rentEpoch?: bigint;
}

/** Reads an account by address (the mint of a token account, for its decimals). */
export type AccountReader = (address: string) => AccountState | undefined;

/** agave's `ParsedAccount`: `program` in kebab case, the parsed `{type, info}`, and the data length. */
export interface ParsedAccount {
  readonly program: 'nonce' | 'spl-token' | 'spl-token-2022';
  readonly parsed: { readonly type: string; readonly info: unknown };
  readonly space: number;
}

export type AccountEncoding = 'binary' | 'base58' | 'base64' | 'base64+zstd' | 'jsonParsed';

export interface DataSlice {
  readonly offset: number;
  readonly length: number;
}

/** agave's `UiAccount`. */
export interface UiAccount {
  readonly lamports: bigint;
  readonly data: string | readonly [string, string] | ParsedAccount;
  readonly owner: string;
  readonly executable: boolean;
  readonly rentEpoch: bigint;
  readonly space: number;
}

const ENCODINGS: ReadonlySet<string> = new Set(['binary', 'base58', 'base64', 'base64+zstd', 'jsonParsed']);
/** Larger data is not base58-encoded by the RPC. */
export const MAX_BASE58_BYTES = 128;
const RENT_EXEMPT_EPOCH = 18446744073709551615n;

export function isAccountEncoding(value: unknown): value is AccountEncoding {
  return typeof value === 'string' && ENCODINGS.has(value);
}

/** What a deleted account looks like to the RPC (agave's `AccountSharedData::default()`). */
export const EMPTY_ACCOUNT: AccountState = {
  lamports: 0n,
  owner: SYSTEM_PROGRAM_ID,
  data: new Uint8Array(0),
  executable: false,
  rentEpoch: 0n,
};

/** The decimals agave's RPC uses for a token account's amounts: the native mint's are known, others read. */
export function mintDecimalsFrom(readAccount: AccountReader | undefined) {
  return (mint: string): number | undefined => {
    if (mint === NATIVE_MINT) return NATIVE_MINT_DECIMALS;
    const account = readAccount?.(mint);
    if (!account || !isTokenProgram(account.owner)) return undefined;
    return unpackTokenMint(account.data, account.owner)?.decimals;
  };
}

/**
 * agave's `parse_account_data_v3` for the owners the localnet holds: system (nonce), SPL Token and
 * Token-2022. Undefined for any other owner or data that does not parse; the caller then answers
 * base64, as the RPC does.
 */
export function parseAccount(account: AccountState, readAccount?: AccountReader): ParsedAccount | undefined {
  if (account.owner === SYSTEM_PROGRAM_ID) {
    const parsed = parseNonce(account.data);
    return parsed ? { program: 'nonce', parsed, space: account.data.length } : undefined;
  }
  if (!isTokenProgram(account.owner)) return undefined;
  const parsed = parseTokenState(account.data, account.owner, mintDecimalsFrom(readAccount));
  if (!parsed) return undefined;
  const program = account.owner === TOKEN_2022_PROGRAM_ID ? 'spl-token-2022' : 'spl-token';
  return { program, parsed, space: account.data.length };
}

function sliceOf(data: Uint8Array, slice: DataSlice | undefined): Uint8Array {
  if (!slice) return data;
  if (slice.offset >= data.length) return new Uint8Array(0);
  return data.subarray(slice.offset, slice.offset + Math.min(slice.length, data.length - slice.offset));
}

function base58Of(account: AccountState, slice: DataSlice | undefined): string {
  // agave checks the whole account's length, not the slice's.
  return account.data.length <= MAX_BASE58_BYTES
    ? encodeBase58(sliceOf(account.data, slice))
    : 'error: data too large for bs58 encoding';
}

/**
 * agave's `encode_ui_account`. `base64+zstd` answers plain base64 tagged `base64` (agave's own answer
 * when compression fails; Node 20 has no zstd), and `jsonParsed` falls back to base64 when the owner
 * has no parser or the data does not parse.
 */
export function encodeAccount(
  account: AccountState,
  encoding: AccountEncoding,
  options: { readonly dataSlice?: DataSlice; readonly readAccount?: AccountReader } = {},
): UiAccount {
  const { dataSlice, readAccount } = options;
  let data: UiAccount['data'];
  switch (encoding) {
    case 'binary':
      data = base58Of(account, dataSlice);
      break;
    case 'base58':
      data = [base58Of(account, dataSlice), 'base58'];
      break;
    case 'jsonParsed':
      data = parseAccount(account, readAccount) ?? [toBase64(sliceOf(account.data, dataSlice)), 'base64'];
      break;
    default:
      data = [toBase64(sliceOf(account.data, dataSlice)), 'base64'];
  }
  return {
    lamports: account.lamports,
    data,
    owner: account.owner,
    executable: account.executable,
    rentEpoch: account.rentEpoch ?? RENT_EXEMPT_EPOCH,
    space: account.data.length,
  };
}
