import { type DomainError, domainError } from '../errors.js';
import { encodeBase58 } from './base58.js';
import type { ParsedMessage } from './wire-message.js';

/**
 * A transaction error as Solana's JSON-RPC writes it: a bare variant name
 * (`"InsufficientFundsForFee"`), or an object naming one variant with its fields
 * (`{"InstructionError":[1,{"Custom":1}]}`, `{"InsufficientFundsForRent":{"account_index":2}}`).
 * Both adapters describe failures from this one shape, so the localnet and a real cluster
 * explain the same failure with the same words.
 */
export type TransactionErrorJson = string | { readonly [variant: string]: unknown };

/** An instruction error inside `InstructionError`: a name, `{Custom: n}` or `{BorshIoError: msg}`. */
export type InstructionErrorJson = string | { readonly Custom: number } | { readonly BorshIoError: string };

// Solana's TransactionError / InstructionError variants without fields, in declaration order:
// LiteSVM hands them over as bare numbers.
export const TRANSACTION_ERRORS = [
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

export const INSTRUCTION_ERRORS = [
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

const SYSTEM_PROGRAM = '11111111111111111111111111111111';
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';

const PROGRAM_NAMES: Record<string, string> = {
  [SYSTEM_PROGRAM]: 'system program',
  ComputeBudget111111111111111111111111111111: 'compute budget program',
  [TOKEN_PROGRAM]: 'token program',
  [TOKEN_2022_PROGRAM]: 'token-2022 program',
  ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL: 'associated token program',
};

// What the programs log for their custom errors, for when no logs are at hand (a status read
// from a cluster carries the error code only).
const SYSTEM_ERRORS = [
  'an account with the same address already exists',
  'insufficient lamports',
  'cannot assign account to this program id',
  'cannot allocate account data of this length',
  'length of requested seed is too long',
  'provided address does not match addressed derived from seed',
  'advancing stored nonce requires a populated RecentBlockhashes sysvar',
  'stored nonce is still in recent_blockhashes',
  'specified nonce does not match stored nonce',
] as const;

const TOKEN_ERRORS = [
  'lamport balance below rent-exempt threshold',
  'insufficient funds',
  'invalid Mint',
  'account not associated with this Mint',
  'owner does not match',
  'fixed supply',
  'already in use',
  'invalid number of provided signers',
  'invalid number of required signers',
  'state is unititialized',
  'instruction does not support native tokens',
  'non-native account can only be closed if its balance is zero',
  'invalid instruction',
  'state is invalid for requested operation',
  'operation overflowed',
  'account does not support specified authority type',
  'this token mint cannot freeze accounts',
  'account is frozen',
  'the provided decimals value different from the Mint decimals',
  'instruction does not support non-native tokens',
] as const;

// Solana's own wording (the Display of TransactionError) for the variants a sender commonly meets.
const TRANSACTION_ERROR_TEXT: Record<string, string> = {
  AccountInUse: 'Account in use',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  SignatureFailure: 'Transaction did not pass signature verification',
  SanitizeFailure: 'Transaction failed to sanitize accounts offsets correctly',
  MissingSignatureForFee: 'Transaction requires a fee but has no signature present',
  InvalidAccountForFee: 'This account may not be used to pay transaction fees',
  UnsupportedVersion: 'Transaction version is unsupported',
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
    const error = /^Program log: (?:Error: )(.+)$/.exec(logs[i]!);
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

function instructionErrorName(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    if ('Custom' in value) return `Custom(${String((value as { Custom: unknown }).Custom)})`;
    if ('BorshIoError' in value)
      return `BorshIoError(${String((value as { BorshIoError: unknown }).BorshIoError)})`;
    const [variant] = Object.keys(value);
    if (variant) return variant;
  }
  return 'UnknownInstructionError';
}

function programAddress(message: ParsedMessage | undefined, instructionIndex: number): string | undefined {
  const ix = message?.instructions[instructionIndex];
  const key = ix ? message?.accountKeys[ix.programIndex] : undefined;
  return key ? encodeBase58(key) : undefined;
}

function customErrorText(program: string | undefined, code: number): string | undefined {
  if (program === SYSTEM_PROGRAM) return SYSTEM_ERRORS[code];
  if (program === TOKEN_PROGRAM || program === TOKEN_2022_PROGRAM) return TOKEN_ERRORS[code];
  return undefined;
}

const INSUFFICIENT = /insufficient (funds|lamports)/i;

function variantOf(error: TransactionErrorJson): { name: string; value: unknown } {
  if (typeof error === 'string') return { name: error, value: undefined };
  const [name] = Object.keys(error);
  return name ? { name, value: error[name] } : { name: 'Unknown', value: undefined };
}

function accountIndexOf(value: unknown): number | undefined {
  if (value && typeof value === 'object' && 'account_index' in value) {
    const index = (value as { account_index: unknown }).account_index;
    return typeof index === 'number' ? index : undefined;
  }
  return undefined;
}

/**
 * A short explanation of a transaction error, with the program that failed when the message is
 * known and the program's own log line when logs are at hand.
 */
export function describeTransactionError(
  error: TransactionErrorJson,
  logs: readonly string[] = [],
  message?: ParsedMessage,
): Failure {
  const { name, value } = variantOf(error);
  if (name === 'AlreadyProcessed') {
    return { kind: 'already_processed', name, message: 'transaction already processed' };
  }
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
  if (name === 'InstructionError' && Array.isArray(value) && typeof value[0] === 'number') {
    const [index, inner] = value as [number, unknown];
    const innerName = instructionErrorName(inner);
    const program = programAddress(message, index);
    const programName = program ? (PROGRAM_NAMES[program] ?? `program ${program}`) : `instruction ${index}`;
    const custom =
      inner && typeof inner === 'object' && 'Custom' in inner
        ? Number((inner as { Custom: unknown }).Custom)
        : undefined;
    const detail =
      logHint(logs) ??
      (custom !== undefined
        ? (customErrorText(program, custom) ?? `custom program error 0x${custom.toString(16)}`)
        : words(innerName));
    const insufficient = innerName === 'InsufficientFunds' || INSUFFICIENT.test(detail);
    return {
      kind: insufficient ? 'insufficient_funds' : 'program',
      name: innerName,
      message: `${programName} failed: ${detail}`.slice(0, 300),
    };
  }
  const accountIndex = accountIndexOf(value);
  if (name === 'InsufficientFundsForRent') {
    const key = accountIndex === undefined ? undefined : message?.accountKeys[accountIndex];
    const who = key ? encodeBase58(key) : `account ${accountIndex ?? '?'}`;
    return {
      kind: 'insufficient_funds',
      name,
      message: `${who} would hold less than the rent-exempt minimum`,
    };
  }
  if (name === 'ProgramExecutionTemporarilyRestricted') {
    const key = accountIndex === undefined ? undefined : message?.accountKeys[accountIndex];
    const who = key ? encodeBase58(key) : `account ${accountIndex ?? '?'}`;
    return { kind: 'program', name, message: `${who} is temporarily restricted` };
  }
  if (name === 'DuplicateInstruction') {
    return { kind: 'rejected', name, message: `duplicate instruction ${String(value)}` };
  }
  return { kind: 'rejected', name, message: `transaction rejected: ${words(name)}` };
}

/** Solana's wording of a transaction error, as the JSON-RPC puts it in error messages. */
export function transactionErrorText(error: TransactionErrorJson): string {
  const { name, value } = variantOf(error);
  if (name === 'InstructionError' && Array.isArray(value)) {
    const [index, inner] = value as [number, unknown];
    const custom =
      inner && typeof inner === 'object' && 'Custom' in inner
        ? `custom program error: 0x${Number((inner as { Custom: unknown }).Custom).toString(16)}`
        : words(instructionErrorName(inner));
    return `Error processing Instruction ${index}: ${custom}`;
  }
  if (name === 'InsufficientFundsForRent') {
    return `Transaction results in an account (${accountIndexOf(value) ?? '?'}) with insufficient funds for rent`;
  }
  return TRANSACTION_ERROR_TEXT[name] ?? words(name);
}

/** Whether the logs of a failed simulation point at missing funds. */
export function mentionsInsufficientFunds(logs: readonly string[]): boolean {
  return logs.some((line) => INSUFFICIENT.test(line));
}

/** A failed simulation as the error `prepare` answers: insufficient funds, or the program's failure. */
export function simulationFailure(
  error: TransactionErrorJson,
  logs: readonly string[],
  message?: ParsedMessage,
): DomainError {
  const failure = describeTransactionError(error, logs, message);
  return domainError(
    failure.kind === 'insufficient_funds' ? 'INSUFFICIENT_FUNDS' : 'SIMULATION_FAILED',
    failure.message,
    { context: { error: failure.name } },
  );
}
