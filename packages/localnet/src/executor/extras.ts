import { decodeBase58, encodeBase58, fromBase64, type ParsedMessage, toBase64 } from '@token-actions/core';
import { FailedTransactionMetadata, type TransactionMetadata } from 'litesvm';
import type { AccountState } from '../parsed/account.js';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../parsed/program-ids.js';
import { uiTokenAmount } from '../parsed/token-amount.js';
import { collectTokenBalances, type UiTransactionTokenBalance } from '../parsed/token-balances.js';
import type { InnerInstructions } from '../parsed/transaction.js';
import type { InnerInstructionsJson, TokenBalanceJson } from '../persistence/records.js';
import type { LocalnetState } from '../state.js';

/**
 * What getTransaction reports beyond balances and logs: the token balances of the transaction's
 * token accounts before and after it ran, and the instructions its programs invoked. Captured at
 * landing (the state before execution is gone afterwards) and journaled with the transaction.
 */

const TOKEN_PROGRAMS = [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID].map((id) => Buffer.from(decodeBase58(id)!));

/** The token balances of the message's token accounts as they are now (empty when no token program
 * is named: most transactions pay nothing for this, not even a base58 encoding). */
export function tokenBalancesNow(
  state: LocalnetState,
  keys: readonly Uint8Array[],
  message: ParsedMessage,
): UiTransactionTokenBalance[] {
  if (!keys.some((key) => TOKEN_PROGRAMS.some((program) => program.equals(key)))) return [];
  const addresses = keys.map(encodeBase58);
  const read = (address: string): AccountState | undefined => state.svm.account(address) ?? undefined;
  return collectTokenBalances(
    addresses,
    message.instructions.map((ix) => ix.programIndex),
    read,
  );
}

/** The inner instructions LiteSVM recorded, per top-level instruction that invoked any. */
export function innerInstructionsOf(
  outcome: TransactionMetadata | FailedTransactionMetadata,
): InnerInstructions[] {
  const meta = outcome instanceof FailedTransactionMetadata ? outcome.meta() : outcome;
  const out: InnerInstructions[] = [];
  meta.innerInstructions().forEach((list, index) => {
    if (list.length === 0) return;
    out.push({
      index,
      instructions: list.map((inner) => {
        const ix = inner.instruction();
        return {
          programIdIndex: ix.programIdIndex(),
          accounts: [...ix.accounts()],
          data: ix.data(),
          stackHeight: inner.stackHeight(),
        };
      }),
    });
  });
  return out;
}

export function tokenBalancesToJson(balances: readonly UiTransactionTokenBalance[]): TokenBalanceJson[] {
  return balances.map((b) => [
    b.accountIndex,
    b.mint,
    b.owner,
    b.programId,
    b.uiTokenAmount.amount,
    b.uiTokenAmount.decimals,
  ]);
}

export function tokenBalancesFromJson(
  stored: readonly TokenBalanceJson[] | undefined,
): UiTransactionTokenBalance[] {
  return (stored ?? []).map(([accountIndex, mint, owner, programId, amount, decimals]) => ({
    accountIndex,
    mint,
    owner,
    programId,
    uiTokenAmount: uiTokenAmount(BigInt(amount), decimals),
  }));
}

export function innerInstructionsToJson(inner: readonly InnerInstructions[]): InnerInstructionsJson[] {
  return inner.map(({ index, instructions }) => [
    index,
    instructions.map((ix) => [
      ix.programIdIndex,
      [...ix.accounts],
      toBase64(ix.data),
      ix.stackHeight ?? null,
    ]),
  ]);
}

export function innerInstructionsFromJson(
  stored: readonly InnerInstructionsJson[] | undefined,
): InnerInstructions[] {
  return (stored ?? []).map(([index, instructions]) => ({
    index,
    instructions: instructions.map(([programIdIndex, accounts, data, stackHeight]) => ({
      programIdIndex,
      accounts,
      data: fromBase64(data) ?? new Uint8Array(0),
      stackHeight,
    })),
  }));
}
