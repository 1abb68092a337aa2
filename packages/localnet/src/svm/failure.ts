import {
  INSTRUCTION_ERRORS,
  type InstructionErrorJson,
  TRANSACTION_ERRORS,
  type TransactionErrorJson,
} from '@token-actions/core';
import type { FailedTransactionMetadata } from 'litesvm';

type InstructionErrorValue = number | { code: number } | { msg: string };

function instructionErrorJson(value: InstructionErrorValue): InstructionErrorJson {
  if (typeof value === 'number') return INSTRUCTION_ERRORS[value] ?? `InstructionError${value}`;
  if ('code' in value) return { Custom: value.code };
  return { BorshIoError: value.msg };
}

/** LiteSVM's error object in the JSON shape the RPC uses (`{"InstructionError":[1,{"Custom":1}]}`). */
export function transactionErrorJson(failed: FailedTransactionMetadata): TransactionErrorJson {
  const error = failed.err() as unknown;
  if (typeof error === 'number') return TRANSACTION_ERRORS[error] ?? `TransactionError${error}`;
  const shaped = error as {
    index?: number;
    accountIndex?: number;
    err?: () => InstructionErrorValue;
    toString(): string;
  };
  if (typeof shaped.err === 'function' && typeof shaped.index === 'number') {
    return { InstructionError: [shaped.index, instructionErrorJson(shaped.err())] };
  }
  if (typeof shaped.accountIndex === 'number') {
    return String(error).includes('InsufficientFundsForRent')
      ? { InsufficientFundsForRent: { account_index: shaped.accountIndex } }
      : { ProgramExecutionTemporarilyRestricted: { account_index: shaped.accountIndex } };
  }
  if (typeof shaped.index === 'number') return { DuplicateInstruction: shaped.index };
  return 'Unknown';
}

export function logsOf(failed: FailedTransactionMetadata): string[] {
  try {
    return failed.meta().logs();
  } catch {
    return [];
  }
}
