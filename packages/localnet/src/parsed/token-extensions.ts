import {
  type Account,
  AccountState,
  CpiGuardLayout,
  DefaultAccountStateLayout,
  ExtensionType,
  GroupMemberPointerLayout,
  GroupPointerLayout,
  getExtensionData,
  getExtensionTypes,
  getTokenGroupMemberState,
  getTokenGroupState,
  InterestBearingMintConfigStateLayout,
  MemoTransferLayout,
  MetadataPointerLayout,
  type Mint,
  MintCloseAuthorityLayout,
  PausableConfigLayout,
  PermanentDelegateLayout,
  ScaledUiAmountConfigLayout,
  type TransferFee,
  TransferFeeAmountLayout,
  TransferFeeConfigLayout,
  TransferHookAccountLayout,
  TransferHookLayout,
} from '@solana/spl-token';
import { unpack as unpackTokenMetadata } from '@solana/spl-token-metadata';
import type { PublicKey } from '@solana/web3.js';

/**
 * Token-2022 extensions rendered as agave's `UiExtension` (`{extension, state}`, camelCase tag; unit
 * variants carry no `state`). The bytes are read by @solana/spl-token's own layouts; an extension it
 * cannot decode (the confidential ones) is reported as `unparseableExtension`, as agave does for
 * extensions it cannot read.
 */
export interface UiExtension {
  readonly extension: string;
  readonly state?: Readonly<Record<string, unknown>>;
}

export type TokenState =
  | { readonly kind: 'mint'; readonly state: Mint }
  | { readonly kind: 'account'; readonly state: Account };

type Decode = (data: Buffer, token: TokenState) => Readonly<Record<string, unknown>> | undefined;

const UNPARSEABLE: UiExtension = { extension: 'unparseableExtension' };

/** An `OptionalNonZeroPubkey`: the all-zero key means none. */
function optionalKey(key: PublicKey | null | undefined): string | null {
  if (!key) return null;
  return key.toBytes().every((byte) => byte === 0) ? null : key.toBase58();
}

function accountStateName(state: number): string {
  if (state === AccountState.Initialized) return 'initialized';
  if (state === AccountState.Frozen) return 'frozen';
  return 'uninitialized';
}

const transferFee = (fee: TransferFee) => ({
  epoch: fee.epoch,
  maximumFee: fee.maximumFee,
  transferFeeBasisPoints: fee.transferFeeBasisPoints,
});

const UNIT_EXTENSIONS: ReadonlyMap<number, string> = new Map([
  [ExtensionType.ImmutableOwner, 'immutableOwner'],
  [ExtensionType.NonTransferable, 'nonTransferable'],
  [ExtensionType.NonTransferableAccount, 'nonTransferableAccount'],
  [ExtensionType.PausableAccount, 'pausableAccount'],
]);

const DECODERS: ReadonlyMap<number, readonly [string, Decode]> = new Map<number, readonly [string, Decode]>([
  [
    ExtensionType.TransferFeeConfig,
    [
      'transferFeeConfig',
      (data) => {
        const config = TransferFeeConfigLayout.decode(data);
        return {
          transferFeeConfigAuthority: optionalKey(config.transferFeeConfigAuthority),
          withdrawWithheldAuthority: optionalKey(config.withdrawWithheldAuthority),
          withheldAmount: config.withheldAmount,
          olderTransferFee: transferFee(config.olderTransferFee),
          newerTransferFee: transferFee(config.newerTransferFee),
        };
      },
    ],
  ],
  [
    ExtensionType.TransferFeeAmount,
    [
      'transferFeeAmount',
      (data) => ({ withheldAmount: TransferFeeAmountLayout.decode(data).withheldAmount }),
    ],
  ],
  [
    ExtensionType.MintCloseAuthority,
    [
      'mintCloseAuthority',
      (data) => ({ closeAuthority: optionalKey(MintCloseAuthorityLayout.decode(data).closeAuthority) }),
    ],
  ],
  [
    ExtensionType.DefaultAccountState,
    [
      'defaultAccountState',
      (data) => ({ accountState: accountStateName(DefaultAccountStateLayout.decode(data).state) }),
    ],
  ],
  [
    ExtensionType.MemoTransfer,
    [
      'memoTransfer',
      (data) => ({
        requireIncomingTransferMemos: MemoTransferLayout.decode(data).requireIncomingTransferMemos,
      }),
    ],
  ],
  [
    ExtensionType.InterestBearingConfig,
    [
      'interestBearingConfig',
      (data) => {
        const config = InterestBearingMintConfigStateLayout.decode(data);
        return {
          rateAuthority: optionalKey(config.rateAuthority),
          initializationTimestamp: config.initializationTimestamp,
          preUpdateAverageRate: config.preUpdateAverageRate,
          lastUpdateTimestamp: config.lastUpdateTimestamp,
          currentRate: config.currentRate,
        };
      },
    ],
  ],
  [ExtensionType.CpiGuard, ['cpiGuard', (data) => ({ lockCpi: CpiGuardLayout.decode(data).lockCpi })]],
  [
    ExtensionType.PermanentDelegate,
    [
      'permanentDelegate',
      (data) => ({ delegate: optionalKey(PermanentDelegateLayout.decode(data).delegate) }),
    ],
  ],
  [
    ExtensionType.TransferHook,
    [
      'transferHook',
      (data) => {
        const hook = TransferHookLayout.decode(data);
        return { authority: optionalKey(hook.authority), programId: optionalKey(hook.programId) };
      },
    ],
  ],
  [
    ExtensionType.TransferHookAccount,
    [
      'transferHookAccount',
      (data) => ({ transferring: TransferHookAccountLayout.decode(data).transferring }),
    ],
  ],
  [
    ExtensionType.MetadataPointer,
    [
      'metadataPointer',
      (data) => {
        const pointer = MetadataPointerLayout.decode(data);
        return {
          authority: optionalKey(pointer.authority),
          metadataAddress: optionalKey(pointer.metadataAddress),
        };
      },
    ],
  ],
  [
    ExtensionType.TokenMetadata,
    [
      'tokenMetadata',
      (data) => {
        const metadata = unpackTokenMetadata(data);
        return {
          updateAuthority: optionalKey(metadata.updateAuthority),
          mint: metadata.mint.toBase58(),
          name: metadata.name,
          symbol: metadata.symbol,
          uri: metadata.uri,
          additionalMetadata: metadata.additionalMetadata.map(([key, value]) => [key, value]),
        };
      },
    ],
  ],
  [
    ExtensionType.GroupPointer,
    [
      'groupPointer',
      (data) => {
        const pointer = GroupPointerLayout.decode(data);
        return { authority: optionalKey(pointer.authority), groupAddress: optionalKey(pointer.groupAddress) };
      },
    ],
  ],
  [
    ExtensionType.GroupMemberPointer,
    [
      'groupMemberPointer',
      (data) => {
        const pointer = GroupMemberPointerLayout.decode(data);
        return {
          authority: optionalKey(pointer.authority),
          memberAddress: optionalKey(pointer.memberAddress),
        };
      },
    ],
  ],
  [
    ExtensionType.TokenGroup,
    [
      'tokenGroup',
      (_data, token) => {
        const group = token.kind === 'mint' ? getTokenGroupState(token.state) : null;
        if (!group?.mint) return undefined;
        return {
          updateAuthority: optionalKey(group.updateAuthority),
          mint: group.mint.toBase58(),
          size: group.size,
          maxSize: group.maxSize,
        };
      },
    ],
  ],
  [
    ExtensionType.TokenGroupMember,
    [
      'tokenGroupMember',
      (_data, token) => {
        const member = token.kind === 'mint' ? getTokenGroupMemberState(token.state) : null;
        if (!member?.mint || !member.group) return undefined;
        return {
          mint: member.mint.toBase58(),
          group: member.group.toBase58(),
          memberNumber: member.memberNumber,
        };
      },
    ],
  ],
  [
    ExtensionType.ScaledUiAmountConfig,
    [
      'scaledUiAmountConfig',
      (data) => {
        const config = ScaledUiAmountConfigLayout.decode(data);
        return {
          authority: optionalKey(config.authority),
          multiplier: String(config.multiplier),
          newMultiplierEffectiveTimestamp: config.newMultiplierEffectiveTimestamp,
          newMultiplier: String(config.newMultiplier),
        };
      },
    ],
  ],
  [
    ExtensionType.PausableConfig,
    [
      'pausableConfig',
      (data) => {
        const config = PausableConfigLayout.decode(data);
        return { authority: optionalKey(config.authority), paused: config.paused };
      },
    ],
  ],
]);

/** The extension types in TLV order, up to the first uninitialized entry (where spl-token-2022 stops). */
function extensionTypesOf(tlvData: Buffer): number[] {
  let types: number[];
  try {
    types = getExtensionTypes(tlvData);
  } catch {
    // A truncated TLV entry: keep what was read before it, as the program's own iterator does.
    types = [];
  }
  const end = types.indexOf(ExtensionType.Uninitialized);
  return end === -1 ? types : types.slice(0, end);
}

function parseExtension(type: number, token: TokenState): UiExtension {
  const unit = UNIT_EXTENSIONS.get(type);
  if (unit) return { extension: unit };
  const decoder = DECODERS.get(type);
  const data = getExtensionData(type, token.state.tlvData);
  if (!decoder || !data) return UNPARSEABLE;
  try {
    const state = decoder[1](data, token);
    return state ? { extension: decoder[0], state } : UNPARSEABLE;
  } catch {
    return UNPARSEABLE;
  }
}

export function parseExtensions(token: TokenState): UiExtension[] {
  return extensionTypesOf(token.state.tlvData).map((type) => parseExtension(type, token));
}
