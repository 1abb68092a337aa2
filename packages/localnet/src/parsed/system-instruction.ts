import {
  getAllocateInstructionDataDecoder,
  getAllocateWithSeedInstructionDataDecoder,
  getAssignInstructionDataDecoder,
  getAssignWithSeedInstructionDataDecoder,
  getAuthorizeNonceAccountInstructionDataDecoder,
  getCreateAccountAllowPrefundInstructionDataDecoder,
  getCreateAccountInstructionDataDecoder,
  getCreateAccountWithSeedInstructionDataDecoder,
  getInitializeNonceAccountInstructionDataDecoder,
  getTransferSolInstructionDataDecoder,
  getTransferSolWithSeedInstructionDataDecoder,
  getWithdrawNonceAccountInstructionDataDecoder,
  identifySystemInstruction,
  SystemInstruction,
} from '@solana-program/system';
import type { ParsedInstructionBody } from './instruction-types.js';

/**
 * agave's `parse_system`: the instruction's type and info, with the field names and account positions
 * the RPC uses; undefined when the data does not decode or accounts are missing.
 */
export function parseSystemInstruction(
  accounts: readonly string[],
  data: Uint8Array,
): ParsedInstructionBody | undefined {
  let kind: SystemInstruction;
  try {
    kind = identifySystemInstruction(data);
  } catch {
    return undefined;
  }
  const needs = (count: number) => accounts.length >= count;
  const at = (index: number) => accounts[index] as string;
  switch (kind) {
    case SystemInstruction.CreateAccount: {
      if (!needs(2)) return undefined;
      const { lamports, space, programAddress } = getCreateAccountInstructionDataDecoder().decode(data);
      return {
        type: 'createAccount',
        info: { source: at(0), newAccount: at(1), lamports, space, owner: programAddress },
      };
    }
    case SystemInstruction.Assign: {
      if (!needs(1)) return undefined;
      const { programAddress } = getAssignInstructionDataDecoder().decode(data);
      return { type: 'assign', info: { account: at(0), owner: programAddress } };
    }
    case SystemInstruction.TransferSol: {
      if (!needs(2)) return undefined;
      const { amount } = getTransferSolInstructionDataDecoder().decode(data);
      return { type: 'transfer', info: { source: at(0), destination: at(1), lamports: amount } };
    }
    case SystemInstruction.CreateAccountWithSeed: {
      if (!needs(2)) return undefined;
      const decoded = getCreateAccountWithSeedInstructionDataDecoder().decode(data);
      return {
        type: 'createAccountWithSeed',
        info: {
          source: at(0),
          newAccount: at(1),
          base: decoded.base,
          seed: decoded.seed,
          lamports: decoded.amount,
          space: decoded.space,
          owner: decoded.programAddress,
        },
      };
    }
    case SystemInstruction.AdvanceNonceAccount:
      if (!needs(3)) return undefined;
      return {
        type: 'advanceNonce',
        info: { nonceAccount: at(0), recentBlockhashesSysvar: at(1), nonceAuthority: at(2) },
      };
    case SystemInstruction.WithdrawNonceAccount: {
      if (!needs(5)) return undefined;
      const { withdrawAmount } = getWithdrawNonceAccountInstructionDataDecoder().decode(data);
      return {
        type: 'withdrawFromNonce',
        info: {
          nonceAccount: at(0),
          destination: at(1),
          recentBlockhashesSysvar: at(2),
          rentSysvar: at(3),
          nonceAuthority: at(4),
          lamports: withdrawAmount,
        },
      };
    }
    case SystemInstruction.InitializeNonceAccount: {
      if (!needs(3)) return undefined;
      const { nonceAuthority } = getInitializeNonceAccountInstructionDataDecoder().decode(data);
      return {
        type: 'initializeNonce',
        info: { nonceAccount: at(0), recentBlockhashesSysvar: at(1), rentSysvar: at(2), nonceAuthority },
      };
    }
    case SystemInstruction.AuthorizeNonceAccount: {
      if (!needs(2)) return undefined;
      const { newNonceAuthority } = getAuthorizeNonceAccountInstructionDataDecoder().decode(data);
      return {
        type: 'authorizeNonce',
        info: { nonceAccount: at(0), nonceAuthority: at(1), newAuthorized: newNonceAuthority },
      };
    }
    case SystemInstruction.UpgradeNonceAccount:
      if (!needs(1)) return undefined;
      return { type: 'upgradeNonce', info: { nonceAccount: at(0) } };
    case SystemInstruction.Allocate: {
      if (!needs(1)) return undefined;
      const { space } = getAllocateInstructionDataDecoder().decode(data);
      return { type: 'allocate', info: { account: at(0), space } };
    }
    case SystemInstruction.AllocateWithSeed: {
      if (!needs(2)) return undefined;
      const decoded = getAllocateWithSeedInstructionDataDecoder().decode(data);
      return {
        type: 'allocateWithSeed',
        info: {
          account: at(0),
          base: decoded.base,
          seed: decoded.seed,
          space: decoded.space,
          owner: decoded.programAddress,
        },
      };
    }
    case SystemInstruction.AssignWithSeed: {
      if (!needs(2)) return undefined;
      const decoded = getAssignWithSeedInstructionDataDecoder().decode(data);
      return {
        type: 'assignWithSeed',
        info: { account: at(0), base: decoded.base, seed: decoded.seed, owner: decoded.programAddress },
      };
    }
    case SystemInstruction.TransferSolWithSeed: {
      if (!needs(3)) return undefined;
      const decoded = getTransferSolWithSeedInstructionDataDecoder().decode(data);
      return {
        type: 'transferWithSeed',
        info: {
          source: at(0),
          sourceBase: at(1),
          destination: at(2),
          lamports: decoded.amount,
          sourceSeed: decoded.fromSeed,
          sourceOwner: decoded.fromOwner,
        },
      };
    }
    case SystemInstruction.CreateAccountAllowPrefund: {
      const { lamports, space, programAddress } =
        getCreateAccountAllowPrefundInstructionDataDecoder().decode(data);
      // Without lamports there is no payer account.
      if (lamports === 0n) {
        if (!needs(1)) return undefined;
        return {
          type: 'createAccountAllowPrefund',
          info: { newAccount: at(0), space, owner: programAddress },
        };
      }
      if (!needs(2)) return undefined;
      return {
        type: 'createAccountAllowPrefund',
        info: { newAccount: at(0), source: at(1), lamports, space, owner: programAddress },
      };
    }
    default:
      return undefined;
  }
}
