import { VersionedTransaction } from '@solana/web3.js';
import { encodeBase58, toBase64 } from '@token-actions/core';
import {
  messageAccountKeys,
  parsedAccountKeys,
  parseInnerInstructions,
  parseTransaction,
} from '../parsed/transaction.js';
import type { LandedTransaction } from '../types.js';
import { messageJson } from './encoding.js';
import { invalidParams, RpcError, UNSUPPORTED_VERSION } from './errors.js';

/** A landed transaction with its meta, as getTransaction and getBlock write it. */

export type TransactionEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58';
const ENCODINGS: readonly string[] = ['json', 'jsonParsed', 'base64', 'base58'];

export function transactionEncodingOf(config: Record<string, unknown>): TransactionEncoding {
  const encoding = config.encoding ?? 'json';
  if (!ENCODINGS.includes(String(encoding)))
    throw invalidParams(`Invalid params: unsupported encoding: ${String(encoding).slice(0, 32)}`);
  return encoding as TransactionEncoding;
}

/** Whether the client named a `maxSupportedTransactionVersion` (then v0 is shown, with `version`). */
export function versionedOf(config: Record<string, unknown>): boolean {
  const max = config.maxSupportedTransactionVersion;
  if (max === undefined || max === null) return false;
  if (!Number.isInteger(max) || (max as number) < 0 || (max as number) > 255)
    throw invalidParams('Invalid params: maxSupportedTransactionVersion must be a u8');
  return true;
}

/** agave refuses a v0 transaction to a client that did not say it understands one. */
export function checkVersion(found: LandedTransaction, versioned: boolean): void {
  if (found.message.version === 0 && !versioned) {
    throw new RpcError(
      UNSUPPORTED_VERSION,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  }
}

function signaturesOf(found: LandedTransaction): string[] {
  // The signatures follow their one-byte count (a packet holds at most 19 of them).
  return Array.from({ length: found.message.numRequiredSignatures }, (_, i) =>
    encodeBase58(found.wire.subarray(1 + i * 64, 1 + (i + 1) * 64)),
  );
}

function statusOf(found: LandedTransaction) {
  return { err: found.err, status: found.err === null ? { Ok: null } : { Err: found.err } };
}

function rawInnerInstructions(found: LandedTransaction) {
  return found.innerInstructions.map(({ index, instructions }) => ({
    index,
    instructions: instructions.map((ix) => ({
      programIdIndex: ix.programIdIndex,
      accounts: [...ix.accounts],
      data: encodeBase58(ix.data),
      stackHeight: ix.stackHeight ?? null,
    })),
  }));
}

function versionOf(found: LandedTransaction, versioned: boolean) {
  return versioned ? { version: found.message.version } : {};
}

/** `{transaction, meta, version?}` in the encoding asked for (getTransaction, getBlock `full`). */
export function transactionWithMeta(
  found: LandedTransaction,
  encoding: TransactionEncoding,
  versioned: boolean,
  showRewards = true,
) {
  checkVersion(found, versioned);
  const common = {
    ...statusOf(found),
    fee: found.fee,
    preBalances: found.preBalances,
    postBalances: found.postBalances,
  };
  const tail = {
    logMessages: found.logs,
    preTokenBalances: found.preTokenBalances,
    postTokenBalances: found.postTokenBalances,
    ...(showRewards ? { rewards: [] } : {}),
  };
  if (encoding === 'jsonParsed') {
    const transaction = VersionedTransaction.deserialize(found.wire);
    const keys = messageAccountKeys(transaction.message, found.loadedAddresses);
    return {
      transaction: parseTransaction(transaction, found.loadedAddresses),
      // agave leaves `loadedAddresses` out here: the parsed keys already say where each came from.
      meta: {
        ...common,
        innerInstructions: parseInnerInstructions(found.innerInstructions, keys),
        ...tail,
        computeUnitsConsumed: found.unitsConsumed,
      },
      ...versionOf(found, versioned),
    };
  }
  const transaction =
    encoding === 'base64'
      ? [toBase64(found.wire), 'base64']
      : encoding === 'base58'
        ? [encodeBase58(found.wire), 'base58']
        : { signatures: signaturesOf(found), message: messageJson(found.message) };
  return {
    transaction,
    meta: {
      ...common,
      innerInstructions: rawInnerInstructions(found),
      ...tail,
      loadedAddresses: found.loadedAddresses,
      computeUnitsConsumed: found.unitsConsumed,
    },
    ...versionOf(found, versioned),
  };
}

/** getBlock's `accounts` details: the signatures and flagged account keys, balances, no instructions. */
export function transactionAccounts(found: LandedTransaction, versioned: boolean, showRewards = true) {
  checkVersion(found, versioned);
  const { message } = VersionedTransaction.deserialize(found.wire);
  return {
    transaction: {
      signatures: signaturesOf(found),
      accountKeys: parsedAccountKeys(message, found.loadedAddresses),
    },
    meta: {
      ...statusOf(found),
      fee: found.fee,
      preBalances: found.preBalances,
      postBalances: found.postBalances,
      preTokenBalances: found.preTokenBalances,
      postTokenBalances: found.postTokenBalances,
      ...(showRewards ? { rewards: [] } : {}),
    },
    ...versionOf(found, versioned),
  };
}
