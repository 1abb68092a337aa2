import { encodeBase58 } from '@token-actions/core';
import type { FailedTransactionMetadata } from 'litesvm';
import type { ParsedMessage } from './message.js';

// Solana's TransactionError / InstructionError variants without fields, in declaration order:
// LiteSVM hands them over as bare numbers.
const TRANSACTION_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
] as const;

const INSTRUCTION_ERRORS = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
] as const;

const PROGRAM_NAMES: Record<string, string> = {
  '11111111111111111111111111111111': 'system program',
  ComputeBudget111111111111111111111111111111: 'compute budget program',
  TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA: 'token program',
  TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb: 'token-2022 program',
  ATokenGPvbdGVxr1b2hvZbsiqW5xWH8QNg7RyVpKcfa: 'associated token program',
};

export type FailureKind = 'insufficient_funds' | 'rejected' | 'already_processed' | 'program';

export interface Failure {
  readonly kind: FailureKind;
  /** Short, readable, safe to show a caller. */
  readonly message: string;
  /** The raw error name, for logs. */
  readonly name: string;
}

/** "InsufficientFundsForFee" -> "insufficient funds for fee" */
function words(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

const FRAMEWORK_LOG = /^Program \w+ (invoke \[\d+\]|success|consumed .*|failed: .*)$/;

/** The most telling program log line: an explicit "Error: ..." log first, else the last free-form one. */
function logHint(logs: readonly string[]): string | undefined {
  for (let i = logs.length - 1; i >= 0; i--) {
    const line = logs[i]!;
    const error = /^Program log: (?:Error: )(.+)$/.exec(line);
    if (error) return error[1];
  }
  for (let i = logs.length - 1; i >= 0; i--) {
    const line = logs[i]!;
    if (
      FRAMEWORK_LOG.test(line) ||
      line.startsWith('Program log: Instruction:') ||
      line.startsWith('Program return:')
    ) {
      continue;
    }
    return line.replace(/^Program log: /, '');
  }
  return undefined;
}

type InstructionErrorValue = number | { code: number } | { msg: string };

function describeInstructionError(value: InstructionErrorValue): string {
  if (typeof value === 'number') return INSTRUCTION_ERRORS[value] ?? `InstructionError${value}`;
  if ('code' in value) return `Custom(${value.code})`;
  return `BorshIoError(${value.msg})`;
}

function programName(message: ParsedMessage | undefined, instructionIndex: number): string {
  const ix = message?.instructions[instructionIndex];
  const key = ix ? message?.accountKeys[ix.programIndex] : undefined;
  if (!key) return `instruction ${instructionIndex}`;
  const address = encodeBase58(key);
  return PROGRAM_NAMES[address] ?? `program ${address}`;
}

const INSUFFICIENT = /insufficient (funds|lamports)/i;

export function describeFailure(failed: FailedTransactionMetadata, message?: ParsedMessage): Failure {
  const error = failed.err() as unknown;
  let logs: readonly string[] = [];
  try {
    logs = failed.meta().logs();
  } catch {
    logs = [];
  }
  if (typeof error === 'number') {
    const name = TRANSACTION_ERRORS[error] ?? `TransactionError${error}`;
    if (name === 'AlreadyProcessed')
      return { kind: 'already_processed', name, message: 'transaction already processed' };
    if (name === 'InsufficientFundsForFee') {
      return { kind: 'insufficient_funds', name, message: 'the fee payer cannot pay the transaction fee' };
    }
    if (name === 'AccountNotFound') {
      return {
        kind: 'insufficient_funds',
        name,
        message: 'the fee payer account does not exist (it holds no SOL)',
      };
    }
    return { kind: 'rejected', name, message: `transaction rejected: ${words(name)}` };
  }
  const shaped = error as {
    index?: number;
    accountIndex?: number;
    err?: () => InstructionErrorValue;
  };
  if (typeof shaped.err === 'function' && typeof shaped.index === 'number') {
    const inner = shaped.err();
    const name = describeInstructionError(inner);
    const hint = logHint(logs);
    const program = programName(message, shaped.index);
    const detail =
      hint ??
      (typeof inner === 'object' && 'code' in inner
        ? `custom program error 0x${inner.code.toString(16)}`
        : words(name));
    const insufficient = name === 'InsufficientFunds' || INSUFFICIENT.test(detail);
    return {
      kind: insufficient ? 'insufficient_funds' : 'program',
      name,
      message: `${program} failed: ${detail}`.slice(0, 300),
    };
  }
  if (typeof shaped.accountIndex === 'number') {
    const account = message?.accountKeys[shaped.accountIndex];
    const who = account ? encodeBase58(account) : `account ${shaped.accountIndex}`;
    if (String(error).includes('InsufficientFundsForRent')) {
      return {
        kind: 'insufficient_funds',
        name: 'InsufficientFundsForRent',
        message: `${who} would hold less than the rent-exempt minimum`,
      };
    }
    return {
      kind: 'program',
      name: 'ProgramExecutionTemporarilyRestricted',
      message: `${who} is temporarily restricted`,
    };
  }
  if (typeof shaped.index === 'number') {
    return {
      kind: 'rejected',
      name: 'DuplicateInstruction',
      message: `duplicate instruction ${shaped.index}`,
    };
  }
  return { kind: 'program', name: 'Unknown', message: 'transaction failed' };
}

/** Whether the logs of a failed simulation point at missing funds. */
export function mentionsInsufficientFunds(logs: readonly string[]): boolean {
  return logs.some((line) => INSUFFICIENT.test(line));
}
