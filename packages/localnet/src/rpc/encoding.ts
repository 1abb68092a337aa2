import { getBase58Encoder } from '@solana/kit';
import {
  encodeBase58,
  formatAmount,
  fromBase64,
  isPublicKey,
  isSignature,
  type ParsedMessage,
  type PublicKey,
  type Signature,
  type TransactionErrorJson,
  toBase64,
  transactionErrorText,
} from '@token-actions/core';
import type { LocalAccount, WireRejection } from '../types.js';
import { INTERNAL_ERROR, invalidParams, PREFLIGHT_FAILURE, RpcError, SIGNATURE_FAILURE } from './errors.js';

/** Reading params and writing results in the shapes Solana's JSON-RPC uses. */

export const U64_MAX_TEXT = '18446744073709551615';
const MAX_ENCODED_TRANSACTION = 2_000;

/** JSON with bigints written as plain integers, as the RPC writes u64 values. */
export { toJson } from '../parsed/json.js';

export function configOf(params: unknown[], index: number): Record<string, unknown> {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidParams('Invalid params: expected a configuration object');
  return value as Record<string, unknown>;
}

export function pubkeyParam(value: unknown): PublicKey {
  if (!isPublicKey(value)) throw invalidParams('Invalid param: Invalid');
  return value;
}

export function signatureParam(value: unknown): Signature {
  if (!isSignature(value)) throw invalidParams('Invalid param: Invalid');
  return value;
}

/** An array param of at most `max` entries (`what` names them in the error). */
export function listParam(value: unknown, max: number, what: string, tooMany = 'inputs'): unknown[] {
  if (!Array.isArray(value)) throw invalidParams(`Invalid params: expected an array of ${what}`);
  if (value.length > max) throw invalidParams(`Too many ${tooMany} provided; max ${max}`);
  return value;
}

export function integerParam(value: unknown, name: string, max: bigint): bigint {
  let parsed: bigint | undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value)) parsed = BigInt(value);
  else if (typeof value === 'string' && /^\d{1,20}$/.test(value)) parsed = BigInt(value);
  if (parsed === undefined || parsed < 0n || parsed > max)
    throw invalidParams(`Invalid params: ${name} must be an integer in range`);
  return parsed;
}

const COMMITMENT_RANK = { processed: 0, confirmed: 1, finalized: 2 } as const;
export type Commitment = keyof typeof COMMITMENT_RANK;

export function commitmentOf(config: Record<string, unknown>, fallback: Commitment): Commitment {
  const commitment = config.commitment ?? fallback;
  if (commitment === 'recent' || commitment === 'single' || commitment === 'singleGossip') return 'processed';
  if (commitment === 'max' || commitment === 'root') return 'finalized';
  if (commitment !== 'processed' && commitment !== 'confirmed' && commitment !== 'finalized') {
    throw invalidParams('Invalid params: unknown commitment');
  }
  return commitment;
}

export function atLeast(commitment: Commitment, wanted: Commitment): boolean {
  return COMMITMENT_RANK[commitment] >= COMMITMENT_RANK[wanted];
}

const base58Encoder = getBase58Encoder();

function unsupportedEncoding(encoding: unknown): RpcError {
  return invalidParams(`Invalid params: unsupported encoding: ${String(encoding).slice(0, 32)}`);
}

/** A transaction param: base58 (the default) or base64. */
export function decodeEncoded(value: unknown, encoding: unknown): Uint8Array {
  if (typeof value !== 'string') throw invalidParams('Invalid params: expected an encoded transaction');
  let bytes: Uint8Array | undefined;
  if (encoding === undefined || encoding === null || encoding === 'base58') {
    try {
      bytes =
        value.length > 0 && value.length <= MAX_ENCODED_TRANSACTION
          ? new Uint8Array(base58Encoder.encode(value))
          : undefined;
    } catch {
      bytes = undefined;
    }
  } else if (encoding === 'base64') {
    bytes =
      value.length <= MAX_ENCODED_TRANSACTION && /^[A-Za-z0-9+/]*={0,2}$/.test(value)
        ? fromBase64(value)
        : undefined;
  } else {
    throw unsupportedEncoding(encoding);
  }
  if (!bytes || bytes.length === 0)
    throw invalidParams('invalid transaction: failed to decode the encoded transaction');
  return bytes;
}

export interface DataSlice {
  readonly offset: number;
  readonly length: number;
}

export function dataSliceOf(config: Record<string, unknown>): DataSlice | undefined {
  const slice = config.dataSlice;
  if (slice === undefined || slice === null) return undefined;
  const { offset, length } = slice as { offset?: unknown; length?: unknown };
  if (
    !Number.isSafeInteger(offset) ||
    !Number.isSafeInteger(length) ||
    (offset as number) < 0 ||
    (length as number) < 0
  ) {
    throw invalidParams('Invalid params: dataSlice needs a non-negative offset and length');
  }
  return { offset: offset as number, length: length as number };
}

const BASE58_LIMIT =
  'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.';

export function accountJson(account: LocalAccount, encoding: unknown, slice?: DataSlice) {
  const data = slice ? account.data.subarray(slice.offset, slice.offset + slice.length) : account.data;
  let encoded: unknown;
  if (encoding === 'base58') {
    if (data.length > 128) throw invalidParams(BASE58_LIMIT);
    encoded = [encodeBase58(data), 'base58'];
  } else if (encoding === undefined || encoding === null || encoding === 'binary') {
    if (data.length > 128) throw invalidParams(BASE58_LIMIT);
    encoded = encodeBase58(data);
  } else if (encoding === 'base64' || encoding === 'jsonParsed') {
    // The methods parse jsonParsed through `encodedAccount` (account-json.ts); here, with no parser,
    // it falls back to base64 as the real RPC does for owners it cannot parse.
    encoded = [toBase64(data), 'base64'];
  } else {
    throw unsupportedEncoding(encoding);
  }
  return {
    data: encoded,
    executable: account.executable,
    lamports: account.lamports,
    owner: account.owner,
    rentEpoch: BigInt(U64_MAX_TEXT),
    space: account.data.length,
  };
}

export function tokenAmountJson(amount: bigint, decimals: number) {
  const text = formatAmount(amount, decimals);
  return { amount: amount.toString(), decimals, uiAmount: Number(text), uiAmountString: text };
}

export function messageJson(message: ParsedMessage) {
  return {
    accountKeys: message.accountKeys.map(encodeBase58),
    header: {
      numRequiredSignatures: message.numRequiredSignatures,
      numReadonlySignedAccounts: message.numReadonlySigned,
      numReadonlyUnsignedAccounts: message.numReadonlyUnsigned,
    },
    recentBlockhash: encodeBase58(message.recentBlockhash),
    instructions: message.instructions.map((ix) => ({
      programIdIndex: ix.programIndex,
      accounts: [...ix.accountIndexes],
      data: encodeBase58(ix.data),
      stackHeight: null,
    })),
    ...(message.version === 0
      ? {
          addressTableLookups: message.lookups.map((lookup) => ({
            accountKey: encodeBase58(lookup.accountKey),
            writableIndexes: [...lookup.writableIndexes],
            readonlyIndexes: [...lookup.readonlyIndexes],
          })),
        }
      : {}),
  };
}

/** A send or simulation the localnet refused, as the RPC's error: -32602, -32003 or -32002 with
 * the simulation's err and logs. */
export function wireRejectionError(rejected: WireRejection): RpcError {
  if (rejected.reason === 'malformed') return invalidParams(`invalid transaction: ${rejected.message}`);
  if (rejected.reason === 'signature')
    return new RpcError(SIGNATURE_FAILURE, 'Transaction signature verification failure');
  if (rejected.reason === 'unavailable') return new RpcError(INTERNAL_ERROR, rejected.message);
  const errJson: TransactionErrorJson = rejected.err ?? 'SanitizeFailure';
  return new RpcError(PREFLIGHT_FAILURE, `Transaction simulation failed: ${transactionErrorText(errJson)}`, {
    err: errJson,
    logs: rejected.logs ?? [],
    accounts: null,
    unitsConsumed: rejected.unitsConsumed ?? 0n,
    returnData: null,
    innerInstructions: null,
  });
}
