import { encodeBase58 } from '@token-actions/core';
import type {
  CompiledInstruction,
  ParsedInstructionBody,
  UiInstruction,
  UiPartiallyDecodedInstruction,
} from './instruction-types.js';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  isTokenProgram,
  MEMO_V1_PROGRAM_ID,
  MEMO_V3_PROGRAM_ID,
  SYSTEM_PROGRAM_ID,
} from './program-ids.js';
import { parseSystemInstruction } from './system-instruction.js';
import { parseTokenInstruction } from './token-instruction.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** agave's `parse_associated_token`: empty data is the legacy Create; the Borsh enum is one byte. */
function parseAssociatedTokenInstruction(
  accounts: readonly string[],
  data: Uint8Array,
): ParsedInstructionBody | undefined {
  if (data.length > 1) return undefined;
  const kind = data.length === 0 ? 0 : data[0];
  if (kind === 0 || kind === 1) {
    if (accounts.length < 6) return undefined;
    const [source, account, wallet, mint, systemProgram, tokenProgram] = accounts;
    return {
      type: kind === 0 ? 'create' : 'createIdempotent',
      info: { source, account, wallet, mint, systemProgram, tokenProgram },
    };
  }
  if (kind === 2 && accounts.length >= 7) {
    const [nestedSource, nestedMint, destination, nestedOwner, ownerMint, wallet, tokenProgram] = accounts;
    return {
      type: 'recoverNested',
      info: { nestedSource, nestedMint, destination, nestedOwner, ownerMint, wallet, tokenProgram },
    };
  }
  return undefined;
}

function parseMemo(data: Uint8Array): string | undefined {
  try {
    return utf8.decode(data);
  } catch {
    return undefined;
  }
}

/** The program name the RPC shows and what its parser made of the instruction, when it has one. */
function parseKnown(
  programId: string,
  accounts: readonly string[],
  data: Uint8Array,
): { readonly program: string; readonly parsed: unknown } | undefined {
  let parsed: unknown;
  let program: string;
  if (programId === SYSTEM_PROGRAM_ID) {
    program = 'system';
    parsed = parseSystemInstruction(accounts, data);
  } else if (isTokenProgram(programId)) {
    program = 'spl-token';
    parsed = parseTokenInstruction(programId, accounts, data);
  } else if (programId === ASSOCIATED_TOKEN_PROGRAM_ID) {
    program = 'spl-associated-token-account';
    parsed = parseAssociatedTokenInstruction(accounts, data);
  } else if (programId === MEMO_V1_PROGRAM_ID || programId === MEMO_V3_PROGRAM_ID) {
    program = 'spl-memo';
    parsed = parseMemo(data);
  } else {
    return undefined;
  }
  return parsed === undefined ? undefined : { program, parsed };
}

/**
 * agave's `UiInstruction::parse` for jsonParsed transactions: system, SPL Token / Token-2022,
 * associated-token and memo instructions are parsed; any other program (compute budget included,
 * which agave does not parse either) and any instruction that does not decode is shown partially
 * decoded, with its accounts resolved and its data in base58.
 */
export function parseInstruction(
  instruction: CompiledInstruction,
  accountKeys: readonly string[],
): UiInstruction {
  const programId = accountKeys[instruction.programIdIndex] ?? '';
  const accounts = instruction.accounts.map((index) => accountKeys[index] ?? '');
  const stackHeight = instruction.stackHeight ?? null;
  const resolved = instruction.accounts.every((index) => index < accountKeys.length);
  const known = resolved ? parseKnown(programId, accounts, instruction.data) : undefined;
  if (known) return { program: known.program, programId, parsed: known.parsed, stackHeight };
  const partial: UiPartiallyDecodedInstruction = {
    programId,
    accounts,
    data: encodeBase58(instruction.data),
    stackHeight,
  };
  return partial;
}
