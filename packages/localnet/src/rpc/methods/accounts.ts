import { encodeBase58 } from '@token-actions/core';
import type { Localnet } from '../../localnet.js';
import { accountMatchesFilters, parseAccountFilters } from '../../parsed/filters.js';
import { isTokenAccount, isTokenProgram, tokenAccountAmount } from '../../queries/accounts.js';
import { accountReader, encodedAccount } from '../account-json.js';
import { commitmentOf, configOf, dataSliceOf, listParam, pubkeyParam, tokenAmountJson } from '../encoding.js';
import { invalidParams, RpcError } from '../errors.js';
import { type Methods, withContext } from './context.js';

const MAX_ACCOUNTS = 100;

/** Decimals of a mint (its byte 44), read through the localnet's own account query. */
function mintDecimals(localnet: Localnet, mint: string): number | undefined {
  const account = localnet.account(mint);
  if (!account || account.data.length < 82) return undefined;
  return isTokenProgram(account.owner) ? account.data[44] : undefined;
}

/** Accounts, balances and token holdings. */
export function accountMethods(localnet: Localnet): Methods {
  const read = accountReader(localnet.account);
  return {
    getBalance: (params) => {
      const owner = pubkeyParam(params[0]);
      commitmentOf(configOf(params, 1), 'finalized');
      return withContext(localnet, localnet.lamports(owner));
    },
    getAccountInfo: (params) => {
      const address = pubkeyParam(params[0]);
      const config = configOf(params, 1);
      const account = localnet.account(address);
      return withContext(
        localnet,
        account ? encodedAccount(read, account, config.encoding, dataSliceOf(config)) : null,
      );
    },
    getMultipleAccounts: (params) => {
      const addresses = listParam(params[0], MAX_ACCOUNTS, 'public keys').map(pubkeyParam);
      const config = configOf(params, 1);
      const slice = dataSliceOf(config);
      return withContext(
        localnet,
        addresses.map((address) => {
          const account = localnet.account(address);
          return account ? encodedAccount(read, account, config.encoding, slice) : null;
        }),
      );
    },
    getProgramAccounts: (params) => {
      const program = pubkeyParam(params[0]);
      const config = configOf(params, 1);
      commitmentOf(config, 'finalized');
      const filters = parseAccountFilters(config.filters);
      if (filters.isErr()) throw new RpcError(filters.error.code, filters.error.message);
      const slice = dataSliceOf(config);
      const encoding = config.encoding ?? 'binary';
      const found = localnet
        .programAccounts(program)
        .filter((account) => accountMatchesFilters(account.data, filters.value))
        .map((account) => ({
          pubkey: account.address,
          account: encodedAccount(read, account, encoding, slice),
        }));
      return config.withContext === true ? withContext(localnet, found) : found;
    },
    getTokenAccountBalance: (params) => {
      const account = localnet.account(pubkeyParam(params[0]));
      if (!account) throw invalidParams('Invalid param: could not find account');
      if (!isTokenAccount(account.owner, account.data))
        throw invalidParams('Invalid param: not a Token account');
      const decimals = mintDecimals(localnet, encodeBase58(account.data.subarray(0, 32)));
      if (decimals === undefined) throw invalidParams('Invalid param: could not find mint');
      return withContext(localnet, tokenAmountJson(tokenAccountAmount(account.data), decimals));
    },
    getTokenLargestAccounts: (params) => {
      const mint = pubkeyParam(params[0]);
      const decimals = mintDecimals(localnet, mint);
      if (decimals === undefined) throw invalidParams('Invalid param: not a Token mint');
      return withContext(
        localnet,
        localnet
          .tokenHolders(mint)
          .map((holding) => ({ address: holding.address, ...tokenAmountJson(holding.amount, decimals) })),
      );
    },
  };
}
