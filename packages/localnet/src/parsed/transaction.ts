import type { VersionedMessage, VersionedTransaction } from '@solana/web3.js';
import { encodeBase58 } from '@token-actions/core';
import { parseInstruction } from './instruction.js';
import type { CompiledInstruction, UiInstruction } from './instruction-types.js';
import { BPF_UPGRADEABLE_LOADER_ID, RESERVED_ACCOUNT_KEYS } from './program-ids.js';

/** Addresses a v0 message loaded from lookup tables (the `loadedAddresses` of the transaction's meta). */
export interface LoadedAddresses {
  readonly writable: readonly string[];
  readonly readonly: readonly string[];
}

/** agave's `ParsedAccount` of a jsonParsed message. */
export interface ParsedAccountKey {
  readonly pubkey: string;
  readonly writable: boolean;
  readonly signer: boolean;
  readonly source: 'transaction' | 'lookupTable';
}

export interface UiAddressTableLookup {
  readonly accountKey: string;
  readonly writableIndexes: readonly number[];
  readonly readonlyIndexes: readonly number[];
}

/** agave's `UiParsedMessage`; `addressTableLookups` only for v0 messages. */
export interface UiParsedMessage {
  readonly accountKeys: readonly ParsedAccountKey[];
  readonly recentBlockhash: string;
  readonly instructions: readonly UiInstruction[];
  readonly addressTableLookups?: readonly UiAddressTableLookup[];
}

export interface UiParsedTransaction {
  readonly signatures: readonly string[];
  readonly message: UiParsedMessage;
}

/** Inner instructions of one top-level instruction, as the localnet's execution records them. */
export interface InnerInstructions {
  readonly index: number;
  readonly instructions: readonly CompiledInstruction[];
}

const NO_LOOKUPS: LoadedAddresses = { writable: [], readonly: [] };

/** Static keys, then loaded writable, then loaded read-only: the order instructions index into. */
export function messageAccountKeys(
  message: VersionedMessage,
  loaded: LoadedAddresses = NO_LOOKUPS,
): string[] {
  return [...message.staticAccountKeys.map((key) => key.toBase58()), ...loaded.writable, ...loaded.readonly];
}

/**
 * The message's account keys with the RPC's flags. Writability follows the header, then is taken away
 * from reserved accounts (builtins, sysvars) and from invoked programs unless the upgradeable loader
 * is present, as agave's `is_maybe_writable` / `LoadedMessage::is_writable` do.
 */
export function parsedAccountKeys(
  message: VersionedMessage,
  loaded: LoadedAddresses = NO_LOOKUPS,
): ParsedAccountKey[] {
  const keys = messageAccountKeys(message, loaded);
  const staticCount = message.staticAccountKeys.length;
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = message.header;
  const invoked = new Set(message.compiledInstructions.map((ix) => ix.programIdIndex));
  const upgradeableLoaderPresent = keys.includes(BPF_UPGRADEABLE_LOADER_ID);
  const headerWritable = (index: number) => {
    if (index >= staticCount) return index < staticCount + loaded.writable.length;
    if (index < numRequiredSignatures) return index < numRequiredSignatures - numReadonlySignedAccounts;
    return index < staticCount - numReadonlyUnsignedAccounts;
  };
  return keys.map((pubkey, index) => ({
    pubkey,
    writable:
      headerWritable(index) &&
      !RESERVED_ACCOUNT_KEYS.has(pubkey) &&
      !(invoked.has(index) && !upgradeableLoaderPresent),
    signer: index < numRequiredSignatures,
    source: index < staticCount ? 'transaction' : 'lookupTable',
  }));
}

function compiledInstructions(message: VersionedMessage): CompiledInstruction[] {
  return message.compiledInstructions.map((ix) => ({
    programIdIndex: ix.programIdIndex,
    accounts: ix.accountKeyIndexes,
    data: ix.data,
  }));
}

/** agave's jsonParsed message: parsed account keys and instructions (top-level ones have no stack height). */
export function parseMessage(
  message: VersionedMessage,
  loaded: LoadedAddresses = NO_LOOKUPS,
): UiParsedMessage {
  const keys = messageAccountKeys(message, loaded);
  const parsed: UiParsedMessage = {
    accountKeys: parsedAccountKeys(message, loaded),
    recentBlockhash: message.recentBlockhash,
    instructions: compiledInstructions(message).map((ix) => parseInstruction(ix, keys)),
  };
  if (message.version === 'legacy') return parsed;
  return {
    ...parsed,
    addressTableLookups: message.addressTableLookups.map((lookup) => ({
      accountKey: lookup.accountKey.toBase58(),
      writableIndexes: lookup.writableIndexes,
      readonlyIndexes: lookup.readonlyIndexes,
    })),
  };
}

/** The `transaction` field of a jsonParsed `getTransaction` / `getBlock` entry. */
export function parseTransaction(
  transaction: VersionedTransaction,
  loaded: LoadedAddresses = NO_LOOKUPS,
): UiParsedTransaction {
  const { message } = transaction;
  const signatures = transaction.signatures.map((signature) => encodeBase58(signature));
  return { signatures, message: parseMessage(message, loaded) };
}

/** The `innerInstructions` of a jsonParsed meta: each inner instruction parsed against the same keys. */
export function parseInnerInstructions(
  inner: readonly InnerInstructions[],
  accountKeys: readonly string[],
): { readonly index: number; readonly instructions: readonly UiInstruction[] }[] {
  return inner.map(({ index, instructions }) => ({
    index,
    instructions: instructions.map((ix) => parseInstruction(ix, accountKeys)),
  }));
}
