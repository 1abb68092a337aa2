import { decodeBase58 } from '@token-actions/core';
import type { Localnet } from '../../localnet.js';
import { isTokenAccountData } from '../../parsed/filters.js';
import { isTokenProgram } from '../../parsed/program-ids.js';
import { uiTokenAmount } from '../../parsed/token-amount.js';
import { unpackTokenMint } from '../../parsed/token-state.js';
import type { LocalAccount } from '../../types.js';
import { accountReader, encodedAccount } from '../account-json.js';
import { commitmentOf, configOf, dataSliceOf, pubkeyParam } from '../encoding.js';
import { invalidParams } from '../errors.js';
import { type Methods, withContext } from './context.js';

/** Where the owner and the delegate (a COption: 4-byte tag, then the key) sit in a token account. */
const OWNER_OFFSET = 32;
const DELEGATE_TAG_OFFSET = 72;
const DELEGATE_OFFSET = 76;

function startsWith(data: Uint8Array, offset: number, bytes: Uint8Array): boolean {
  if (data.length < offset + bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (data[offset + i] !== bytes[i]) return false;
  return true;
}

/** The token program(s) and mint a `{mint}` or `{programId}` filter names, checked as agave checks them. */
function tokenFilterOf(localnet: Localnet, filter: unknown): { programs: string[]; mint?: Uint8Array } {
  if (typeof filter !== 'object' || filter === null)
    throw invalidParams('Invalid params: expected {"mint": …} or {"programId": …}');
  const { mint, programId } = filter as { mint?: unknown; programId?: unknown };
  if (mint !== undefined) {
    const address = pubkeyParam(mint);
    const account = localnet.account(address);
    if (!account || !isTokenProgram(account.owner)) throw invalidParams('Invalid param: could not find mint');
    return { programs: [account.owner], mint: decodeBase58(address)! };
  }
  if (programId !== undefined) {
    const program = pubkeyParam(programId);
    if (!isTokenProgram(program)) throw invalidParams('Invalid param: unrecognized Token program id');
    return { programs: [program] };
  }
  throw invalidParams('Invalid params: expected {"mint": …} or {"programId": …}');
}

/** Token accounts, owned by the given key (or delegated to it), as the RPC lists them. */
function tokenAccountsBy(localnet: Localnet, role: 'owner' | 'delegate', params: unknown[]) {
  const key = decodeBase58(pubkeyParam(params[0]))!;
  const { programs, mint } = tokenFilterOf(localnet, params[1]);
  const config = configOf(params, 2);
  commitmentOf(config, 'finalized');
  const slice = dataSliceOf(config);
  const read = accountReader(localnet.account);
  const matches = (account: LocalAccount) => {
    const { data } = account;
    if (!isTokenAccountData(data)) return false;
    if (mint && !startsWith(data, 0, mint)) return false;
    if (role === 'owner') return startsWith(data, OWNER_OFFSET, key);
    return data[DELEGATE_TAG_OFFSET] === 1 && startsWith(data, DELEGATE_OFFSET, key);
  };
  const found = programs.flatMap((program) => localnet.programAccounts(program).filter(matches));
  return withContext(
    localnet,
    found.map((account) => ({
      pubkey: account.address,
      account: encodedAccount(read, account, config.encoding ?? 'binary', slice),
    })),
  );
}

/** Token holdings by owner or delegate, and a mint's supply. */
export function tokenMethods(localnet: Localnet): Methods {
  return {
    getTokenAccountsByOwner: (params) => tokenAccountsBy(localnet, 'owner', params),
    getTokenAccountsByDelegate: (params) => tokenAccountsBy(localnet, 'delegate', params),
    getTokenSupply: (params) => {
      const address = pubkeyParam(params[0]);
      commitmentOf(configOf(params, 1), 'finalized');
      const account = localnet.account(address);
      const mint =
        account && isTokenProgram(account.owner) ? unpackTokenMint(account.data, account.owner) : undefined;
      if (!mint) throw invalidParams('Invalid param: not a Token mint');
      return withContext(localnet, uiTokenAmount(mint.supply, mint.decimals));
    },
  };
}
