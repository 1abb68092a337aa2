import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import type { PublicKey as Web3PublicKey } from '@solana/web3.js';
import { type Currency, domainError, isPublicKey, type PublicKey, type Signature } from '@token-actions/core';
import { err, ok } from 'neverthrow';
import { associatedTokenAddress } from './instructions.js';
import {
  type Outcome,
  PRIORITIZATION_FEE_ACCOUNT_LIMIT,
  STATUS_BATCH_LIMIT,
  toKey,
  tokenAccountAmount,
} from './intents.js';
import { keyName, web3Key } from './keys.js';

/** The argument checks and account arithmetic both chain adapters apply to their reads. */

export function checkStatusBatch(ids: readonly Signature[]): Outcome<readonly Signature[]> {
  if (!Array.isArray(ids)) return err(domainError('INVALID_INPUT', 'ids must be an array'));
  if (ids.length > STATUS_BATCH_LIMIT) {
    return err(domainError('INVALID_INPUT', `at most ${STATUS_BATCH_LIMIT} statuses per request`));
  }
  return ok(ids);
}

export function checkFeeAccounts(accounts: readonly PublicKey[]): Outcome<Web3PublicKey[]> {
  if (!Array.isArray(accounts) || accounts.length > PRIORITIZATION_FEE_ACCOUNT_LIMIT) {
    return err(domainError('INVALID_INPUT', `at most ${PRIORITIZATION_FEE_ACCOUNT_LIMIT} accounts`));
  }
  const keys: Web3PublicKey[] = [];
  for (const account of accounts) {
    const key = toKey(account, 'account');
    if (key.isErr()) return err(key.error);
    keys.push(key.value);
  }
  return ok(keys);
}

/** Where a wallet holds an SPL currency: its associated token account, under the currency's program. */
export interface TokenAccountRef {
  readonly address: Web3PublicKey;
  readonly program: Web3PublicKey;
}

export function tokenAccountOf(owner: Web3PublicKey, currency: Currency): Outcome<TokenAccountRef> {
  if (!isPublicKey(currency.mint))
    return err(domainError('UNKNOWN_CURRENCY', `${currency.code} has no valid mint`));
  const program = currency.tokenProgram ? web3Key(currency.tokenProgram) : TOKEN_PROGRAM_ID;
  return ok({ address: associatedTokenAddress(web3Key(currency.mint), owner, program), program });
}

/** Tokens in an account read back; 0 when it is absent or not owned by the expected program. */
export function tokensHeld(
  account: { readonly owner: string; readonly data: Uint8Array } | null | undefined,
  program: Web3PublicKey,
): bigint {
  return account?.owner === keyName(program) ? tokenAccountAmount(account.data) : 0n;
}
