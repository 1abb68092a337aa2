import {
  decodeInitializeMintCloseAuthorityInstructionUnchecked,
  decodeInitializePermanentDelegateInstructionUnchecked,
  decodeInitializeTransferFeeConfigInstructionUnchecked,
  decodeTransferCheckedWithFeeInstructionUnchecked,
  initializeMetadataPointerData,
  TokenInstruction,
  TransferFeeInstruction,
} from '@solana/spl-token';
import { createInitializeInstruction } from '@solana/spl-token-metadata';
import { PublicKey } from '@solana/web3.js';
import type { ParsedInstructionBody } from './instruction-types.js';
import { uiTokenAmount } from './token-amount.js';
import { web3Instruction, withSigners } from './token-instruction-common.js';

/** agave's `UiExtensionType` names, indexed by spl-token-2022's `ExtensionType`. */
const EXTENSION_TYPE_NAMES = [
  'uninitialized',
  'transferFeeConfig',
  'transferFeeAmount',
  'mintCloseAuthority',
  'confidentialTransferMint',
  'confidentialTransferAccount',
  'defaultAccountState',
  'immutableOwner',
  'memoTransfer',
  'nonTransferable',
  'interestBearingConfig',
  'cpiGuard',
  'permanentDelegate',
  'nonTransferableAccount',
  'transferHook',
  'transferHookAccount',
  'confidentialTransferFeeConfig',
  'confidentialTransferFeeAmount',
  'metadataPointer',
  'tokenMetadata',
  'groupPointer',
  'tokenGroup',
  'groupMemberPointer',
  'tokenGroupMember',
  'confidentialMintBurn',
  'scaledUiAmount',
  'pausable',
  'pausableAccount',
  'permissionedBurn',
] as const;

const METADATA_POINTER_INITIALIZE = 0;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The 8-byte discriminator of spl-token-metadata's Initialize, taken from the library's own encoder. */
const TOKEN_METADATA_INITIALIZE = createInitializeInstruction({
  programId: PublicKey.default,
  metadata: PublicKey.default,
  updateAuthority: PublicKey.default,
  mint: PublicKey.default,
  mintAuthority: PublicKey.default,
  name: '',
  symbol: '',
  uri: '',
}).data.subarray(0, 8);

/** Borsh strings (u32 length + UTF-8), as spl-token-metadata's Initialize carries name, symbol and uri. */
function borshStrings(data: Uint8Array, offset: number, count: number): string[] | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const strings: string[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 4 > data.length) return undefined;
    const length = view.getUint32(at, true);
    at += 4;
    if (at + length > data.length) return undefined;
    strings.push(utf8.decode(data.subarray(at, at + length)));
    at += length;
  }
  return strings;
}

function startsWith(data: Uint8Array, prefix: Uint8Array): boolean {
  return data.length >= prefix.length && prefix.every((byte, i) => data[i] === byte);
}

function tokenMetadataInstruction(
  accounts: readonly string[],
  data: Uint8Array,
): ParsedInstructionBody | undefined {
  if (!startsWith(data, TOKEN_METADATA_INITIALIZE) || accounts.length < 4) return undefined;
  const fields = borshStrings(data, TOKEN_METADATA_INITIALIZE.length, 3);
  if (!fields) return undefined;
  const [name, symbol, uri] = fields;
  return {
    type: 'initializeTokenMetadata',
    info: {
      metadata: accounts[0],
      updateAuthority: accounts[1],
      mint: accounts[2],
      mintAuthority: accounts[3],
      name,
      symbol,
      uri,
    },
  };
}

function transferFeeInstruction(
  programId: string,
  accounts: readonly string[],
  data: Uint8Array,
): ParsedInstructionBody | undefined {
  const ix = web3Instruction(programId, accounts, data);
  switch (data[1]) {
    case TransferFeeInstruction.InitializeTransferFeeConfig: {
      if (accounts.length < 1) return undefined;
      const decoded = decodeInitializeTransferFeeConfigInstructionUnchecked(ix).data;
      const info: Record<string, unknown> = {
        mint: accounts[0],
        transferFeeBasisPoints: decoded.transferFeeBasisPoints,
        maximumFee: decoded.maximumFee,
      };
      if (decoded.transferFeeConfigAuthority)
        info.transferFeeConfigAuthority = decoded.transferFeeConfigAuthority.toBase58();
      if (decoded.withdrawWithheldAuthority)
        info.withdrawWithheldAuthority = decoded.withdrawWithheldAuthority.toBase58();
      return { type: 'initializeTransferFeeConfig', info };
    }
    case TransferFeeInstruction.TransferCheckedWithFee: {
      if (accounts.length < 4) return undefined;
      const { amount, decimals, fee } = decodeTransferCheckedWithFeeInstructionUnchecked(ix).data;
      const info = {
        source: accounts[0],
        mint: accounts[1],
        destination: accounts[2],
        tokenAmount: uiTokenAmount(amount, decimals),
        feeAmount: uiTokenAmount(fee, decimals),
      };
      return {
        type: 'transferCheckedWithFee',
        info: withSigners(info, accounts, 3, 'authority', 'multisigAuthority'),
      };
    }
    case TransferFeeInstruction.HarvestWithheldTokensToMint:
      if (accounts.length < 1) return undefined;
      return {
        type: 'harvestWithheldTokensToMint',
        info: { mint: accounts[0], sourceAccounts: accounts.slice(1) },
      };
    default:
      return undefined;
  }
}

function extensionTypesOf(data: Uint8Array): string[] | undefined {
  if ((data.length - 1) % 2 !== 0) return undefined;
  const names: string[] = [];
  for (let at = 1; at < data.length; at += 2) {
    const name = EXTENSION_TYPE_NAMES[(data[at] as number) | ((data[at + 1] as number) << 8)];
    if (!name) return undefined;
    names.push(name);
  }
  return names;
}

function dispatch(
  programId: string,
  accounts: readonly string[],
  data: Uint8Array,
): ParsedInstructionBody | undefined {
  const needs = (count: number) => accounts.length >= count;
  switch (data[0]) {
    case TokenInstruction.GetAccountDataSize: {
      const types = extensionTypesOf(data);
      if (!needs(1) || !types) return undefined;
      return {
        type: 'getAccountDataSize',
        info: { mint: accounts[0], ...(types.length > 0 ? { extensionTypes: types } : {}) },
      };
    }
    case TokenInstruction.InitializeImmutableOwner:
      return needs(1) ? { type: 'initializeImmutableOwner', info: { account: accounts[0] } } : undefined;
    case TokenInstruction.InitializeMintCloseAuthority: {
      if (!needs(1)) return undefined;
      const { closeAuthority } = decodeInitializeMintCloseAuthorityInstructionUnchecked(
        web3Instruction(programId, accounts, data),
      ).data;
      return {
        type: 'initializeMintCloseAuthority',
        info: { mint: accounts[0], newAuthority: closeAuthority?.toBase58() ?? null },
      };
    }
    case TokenInstruction.TransferFeeExtension:
      return transferFeeInstruction(programId, accounts, data);
    case TokenInstruction.CreateNativeMint:
      return needs(3)
        ? {
            type: 'createNativeMint',
            info: { payer: accounts[0], nativeMint: accounts[1], systemProgram: accounts[2] },
          }
        : undefined;
    case TokenInstruction.InitializeNonTransferableMint:
      return needs(1) ? { type: 'initializeNonTransferableMint', info: { mint: accounts[0] } } : undefined;
    case TokenInstruction.InitializePermanentDelegate: {
      if (!needs(1)) return undefined;
      const { delegate } = decodeInitializePermanentDelegateInstructionUnchecked(
        web3Instruction(programId, accounts, data),
      ).data;
      return delegate
        ? { type: 'initializePermanentDelegate', info: { mint: accounts[0], delegate: delegate.toBase58() } }
        : undefined;
    }
    case TokenInstruction.MetadataPointerExtension: {
      if (!needs(1) || data[1] !== METADATA_POINTER_INITIALIZE) return undefined;
      const pointer = initializeMetadataPointerData.decode(
        Buffer.from(data.buffer, data.byteOffset, data.byteLength),
      );
      const info: Record<string, unknown> = { mint: accounts[0] };
      if (!pointer.authority.equals(PublicKey.default)) info.authority = pointer.authority.toBase58();
      if (!pointer.metadataAddress.equals(PublicKey.default))
        info.metadataAddress = pointer.metadataAddress.toBase58();
      return { type: 'initializeMetadataPointer', info };
    }
    default:
      return tokenMetadataInstruction(accounts, data);
  }
}

/**
 * Token-2022's extension instructions that the localnet's mints use (close authority, transfer fees,
 * permanent delegate, metadata pointer, token metadata, immutable owner...), named and shaped as agave's
 * `parse_token` extension modules do. Others stay undefined, so the RPC shows them partially decoded.
 */
export function parseTokenExtensionInstruction(
  programId: string,
  accounts: readonly string[],
  data: Uint8Array,
): ParsedInstructionBody | undefined {
  try {
    return dispatch(programId, accounts, data);
  } catch {
    return undefined;
  }
}
