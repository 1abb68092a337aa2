import {
  decodeAmountToUiAmountInstructionUnchecked,
  decodeApproveCheckedInstructionUnchecked,
  decodeApproveInstructionUnchecked,
  decodeBurnCheckedInstructionUnchecked,
  decodeBurnInstructionUnchecked,
  decodeInitializeAccount2InstructionUnchecked,
  decodeInitializeAccount3InstructionUnchecked,
  decodeInitializeMint2InstructionUnchecked,
  decodeInitializeMintInstructionUnchecked,
  decodeInitializeMultisigInstructionUnchecked,
  decodeMintToCheckedInstructionUnchecked,
  decodeMintToInstructionUnchecked,
  decodeSetAuthorityInstructionUnchecked,
  decodeTransferCheckedInstructionUnchecked,
  decodeTransferInstructionUnchecked,
  TokenInstruction,
} from '@solana/spl-token';
import type { TransactionInstruction } from '@solana/web3.js';
import type { ParsedInstructionBody } from './instruction-types.js';
import { uiTokenAmount } from './token-amount.js';
import { parseTokenExtensionInstruction } from './token-extension-instruction.js';
import { web3Instruction, withSigners } from './token-instruction-common.js';

/** agave's `UiAuthorityType`, indexed by spl-token-2022's `AuthorityType`. */
const AUTHORITY_TYPES = [
  'mintTokens',
  'freezeAccount',
  'accountOwner',
  'closeAccount',
  'transferFeeConfig',
  'withheldWithdraw',
  'closeMint',
  'interestRate',
  'permanentDelegate',
  'confidentialTransferMint',
  'transferHookProgramId',
  'confidentialTransferFeeConfig',
  'metadataPointer',
  'groupPointer',
  'groupMemberPointer',
  'scaledUiAmount',
  'pause',
  'permissionedBurn',
] as const;
/** Authority types that belong to the account rather than the mint. */
const ACCOUNT_AUTHORITIES = new Set(['accountOwner', 'closeAccount']);

type Parse = (ix: TransactionInstruction, accounts: readonly string[]) => ParsedInstructionBody;
type Rule = readonly [minAccounts: number, parse: Parse];

const amountOf = (ix: { data: { amount: bigint; decimals: number } }) =>
  uiTokenAmount(ix.data.amount, ix.data.decimals);

const RULES: ReadonlyMap<number, Rule> = new Map<number, Rule>([
  [
    TokenInstruction.InitializeMint,
    [
      2,
      (ix, a) => {
        const { decimals, mintAuthority, freezeAuthority } =
          decodeInitializeMintInstructionUnchecked(ix).data;
        const info: Record<string, unknown> = {
          mint: a[0],
          decimals,
          mintAuthority: mintAuthority.toBase58(),
        };
        if (freezeAuthority) info.freezeAuthority = freezeAuthority.toBase58();
        info.rentSysvar = a[1];
        return { type: 'initializeMint', info };
      },
    ],
  ],
  [
    TokenInstruction.InitializeMint2,
    [
      1,
      (ix, a) => {
        const { decimals, mintAuthority, freezeAuthority } =
          decodeInitializeMint2InstructionUnchecked(ix).data;
        const info: Record<string, unknown> = {
          mint: a[0],
          decimals,
          mintAuthority: mintAuthority.toBase58(),
        };
        if (freezeAuthority) info.freezeAuthority = freezeAuthority.toBase58();
        return { type: 'initializeMint2', info };
      },
    ],
  ],
  [
    TokenInstruction.InitializeAccount,
    [
      4,
      (_ix, a) => ({
        type: 'initializeAccount',
        info: { account: a[0], mint: a[1], owner: a[2], rentSysvar: a[3] },
      }),
    ],
  ],
  [
    TokenInstruction.InitializeAccount2,
    [
      3,
      (ix, a) => ({
        type: 'initializeAccount2',
        info: {
          account: a[0],
          mint: a[1],
          owner: decodeInitializeAccount2InstructionUnchecked(ix).data.owner.toBase58(),
          rentSysvar: a[2],
        },
      }),
    ],
  ],
  [
    TokenInstruction.InitializeAccount3,
    [
      2,
      (ix, a) => ({
        type: 'initializeAccount3',
        info: {
          account: a[0],
          mint: a[1],
          owner: decodeInitializeAccount3InstructionUnchecked(ix).data.owner.toBase58(),
        },
      }),
    ],
  ],
  [
    TokenInstruction.InitializeMultisig,
    [
      3,
      (ix, a) => ({
        type: 'initializeMultisig',
        info: {
          multisig: a[0],
          rentSysvar: a[1],
          signers: a.slice(2),
          m: decodeInitializeMultisigInstructionUnchecked(ix).data.m,
        },
      }),
    ],
  ],
  [
    TokenInstruction.InitializeMultisig2,
    [
      2,
      (ix, a) => {
        const m = ix.data[1];
        if (m === undefined) throw new RangeError('initializeMultisig2 without m');
        return { type: 'initializeMultisig2', info: { multisig: a[0], signers: a.slice(1), m } };
      },
    ],
  ],
  [
    TokenInstruction.Transfer,
    [
      3,
      (ix, a) => ({
        type: 'transfer',
        info: withSigners(
          {
            source: a[0],
            destination: a[1],
            amount: decodeTransferInstructionUnchecked(ix).data.amount.toString(),
          },
          a,
          2,
          'authority',
          'multisigAuthority',
        ),
      }),
    ],
  ],
  [
    TokenInstruction.Approve,
    [
      3,
      (ix, a) => ({
        type: 'approve',
        info: withSigners(
          {
            source: a[0],
            delegate: a[1],
            amount: decodeApproveInstructionUnchecked(ix).data.amount.toString(),
          },
          a,
          2,
          'owner',
          'multisigOwner',
        ),
      }),
    ],
  ],
  [
    TokenInstruction.Revoke,
    [
      2,
      (_ix, a) => ({ type: 'revoke', info: withSigners({ source: a[0] }, a, 1, 'owner', 'multisigOwner') }),
    ],
  ],
  [
    TokenInstruction.SetAuthority,
    [
      2,
      (ix, a) => {
        const { authorityType, newAuthority } = decodeSetAuthorityInstructionUnchecked(ix).data;
        const name = AUTHORITY_TYPES[authorityType];
        if (!name) throw new RangeError('unknown authority type');
        const owned = ACCOUNT_AUTHORITIES.has(name) ? 'account' : 'mint';
        const info = { [owned]: a[0], authorityType: name, newAuthority: newAuthority?.toBase58() ?? null };
        return { type: 'setAuthority', info: withSigners(info, a, 1, 'authority', 'multisigAuthority') };
      },
    ],
  ],
  [
    TokenInstruction.MintTo,
    [
      3,
      (ix, a) => ({
        type: 'mintTo',
        info: withSigners(
          { mint: a[0], account: a[1], amount: decodeMintToInstructionUnchecked(ix).data.amount.toString() },
          a,
          2,
          'mintAuthority',
          'multisigMintAuthority',
        ),
      }),
    ],
  ],
  [
    TokenInstruction.Burn,
    [
      3,
      (ix, a) => ({
        type: 'burn',
        info: withSigners(
          { account: a[0], mint: a[1], amount: decodeBurnInstructionUnchecked(ix).data.amount.toString() },
          a,
          2,
          'authority',
          'multisigAuthority',
        ),
      }),
    ],
  ],
  [
    TokenInstruction.CloseAccount,
    [
      3,
      (_ix, a) => ({
        type: 'closeAccount',
        info: withSigners({ account: a[0], destination: a[1] }, a, 2, 'owner', 'multisigOwner'),
      }),
    ],
  ],
  [
    TokenInstruction.FreezeAccount,
    [
      3,
      (_ix, a) => ({
        type: 'freezeAccount',
        info: withSigners({ account: a[0], mint: a[1] }, a, 2, 'freezeAuthority', 'multisigFreezeAuthority'),
      }),
    ],
  ],
  [
    TokenInstruction.ThawAccount,
    [
      3,
      (_ix, a) => ({
        type: 'thawAccount',
        info: withSigners({ account: a[0], mint: a[1] }, a, 2, 'freezeAuthority', 'multisigFreezeAuthority'),
      }),
    ],
  ],
  [
    TokenInstruction.TransferChecked,
    [
      4,
      (ix, a) => ({
        type: 'transferChecked',
        info: withSigners(
          {
            source: a[0],
            mint: a[1],
            destination: a[2],
            tokenAmount: amountOf(decodeTransferCheckedInstructionUnchecked(ix)),
          },
          a,
          3,
          'authority',
          'multisigAuthority',
        ),
      }),
    ],
  ],
  [
    TokenInstruction.ApproveChecked,
    [
      4,
      (ix, a) => ({
        type: 'approveChecked',
        info: withSigners(
          {
            source: a[0],
            mint: a[1],
            delegate: a[2],
            tokenAmount: amountOf(decodeApproveCheckedInstructionUnchecked(ix)),
          },
          a,
          3,
          'owner',
          'multisigOwner',
        ),
      }),
    ],
  ],
  [
    TokenInstruction.MintToChecked,
    [
      3,
      (ix, a) => ({
        type: 'mintToChecked',
        info: withSigners(
          { mint: a[0], account: a[1], tokenAmount: amountOf(decodeMintToCheckedInstructionUnchecked(ix)) },
          a,
          2,
          'mintAuthority',
          'multisigMintAuthority',
        ),
      }),
    ],
  ],
  [
    TokenInstruction.BurnChecked,
    [
      3,
      (ix, a) => ({
        type: 'burnChecked',
        info: withSigners(
          { account: a[0], mint: a[1], tokenAmount: amountOf(decodeBurnCheckedInstructionUnchecked(ix)) },
          a,
          2,
          'authority',
          'multisigAuthority',
        ),
      }),
    ],
  ],
  [TokenInstruction.SyncNative, [1, (_ix, a) => ({ type: 'syncNative', info: { account: a[0] } })]],
  [
    TokenInstruction.AmountToUiAmount,
    [
      1,
      (ix, a) => ({
        type: 'amountToUiAmount',
        info: { mint: a[0], amount: decodeAmountToUiAmountInstructionUnchecked(ix).data.amount.toString() },
      }),
    ],
  ],
  [
    TokenInstruction.UiAmountToAmount,
    [
      1,
      (ix, a) => ({
        type: 'uiAmountToAmount',
        info: { mint: a[0], uiAmount: new TextDecoder('utf-8', { fatal: true }).decode(ix.data.subarray(1)) },
      }),
    ],
  ],
]);

/**
 * agave's `parse_token` for both token programs (the RPC names them both `spl-token`): the base
 * instructions here, Token-2022's extension and token-metadata instructions in
 * `parseTokenExtensionInstruction`. Undefined when the data does not decode or accounts are missing.
 */
export function parseTokenInstruction(
  programId: string,
  accounts: readonly string[],
  data: Uint8Array,
): ParsedInstructionBody | undefined {
  const tag = data[0];
  const rule = tag === undefined ? undefined : RULES.get(tag);
  if (!rule) return parseTokenExtensionInstruction(programId, accounts, data);
  if (accounts.length < rule[0]) return undefined;
  try {
    return rule[1](web3Instruction(programId, accounts, data), accounts);
  } catch {
    return undefined;
  }
}
