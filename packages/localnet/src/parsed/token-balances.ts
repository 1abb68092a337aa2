import { type AccountReader, mintDecimalsFrom } from './account.js';
import { isTokenProgram } from './program-ids.js';
import { type UiTokenAmount, uiTokenAmount } from './token-amount.js';
import { unpackTokenAccount } from './token-state.js';

/** agave's `UiTransactionTokenBalance` (`preTokenBalances` / `postTokenBalances` entries). */
export interface UiTransactionTokenBalance {
  readonly accountIndex: number;
  readonly mint: string;
  readonly uiTokenAmount: UiTokenAmount;
  readonly owner: string;
  readonly programId: string;
}

/**
 * agave's `collect_token_balances` for one transaction, against one state of the ledger: call it
 * with the accounts as they were before execution for `preTokenBalances`, and after for
 * `postTokenBalances`. Only transactions that name a token program have balances; invoked programs
 * and the token programs themselves are skipped; an account counts when a token program owns it, it
 * unpacks as an initialized token account and its mint's decimals can be read. Amounts are the raw
 * ones (no interest or UI multiplier), as the ledger records them.
 */
export function collectTokenBalances(
  accountKeys: readonly string[],
  programIdIndexes: readonly number[],
  readAccount: AccountReader,
): UiTransactionTokenBalance[] {
  if (!accountKeys.some(isTokenProgram)) return [];
  const invoked = new Set(programIdIndexes);
  const decimalsOf = mintDecimalsFrom(readAccount);
  const balances: UiTransactionTokenBalance[] = [];
  accountKeys.forEach((address, accountIndex) => {
    if (invoked.has(accountIndex) || isTokenProgram(address)) return;
    const account = readAccount(address);
    if (!account || !isTokenProgram(account.owner)) return;
    const token = unpackTokenAccount(account.data, account.owner);
    if (!token) return;
    const mint = token.mint.toBase58();
    const decimals = decimalsOf(mint);
    if (decimals === undefined) return;
    balances.push({
      accountIndex,
      mint,
      uiTokenAmount: uiTokenAmount(token.amount, decimals),
      owner: token.owner.toBase58(),
      programId: account.owner,
    });
  });
  return balances;
}
