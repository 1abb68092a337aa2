import { encodeBase58 } from '@token-actions/core';
import type { LocalnetState } from '../state.js';
import { keyBytes } from '../svm/svm.js';
import type { LocalAccount } from '../types.js';

/** Every account `program` owns (none for an address that is not one). */
export function programAccounts(state: LocalnetState, program: string): LocalAccount[] {
  const bytes = keyBytes(program);
  if (!bytes) return [];
  const out: LocalAccount[] = [];
  for (const entry of state.svm.native.getProgramAccounts(bytes)) {
    const account = entry.account();
    const lamports = account.lamports();
    if (lamports === 0n) continue;
    out.push({
      address: encodeBase58(entry.address),
      lamports,
      owner: program,
      executable: account.executable(),
      data: account.data(),
    });
  }
  return out;
}

/**
 * The owners of every account a localnet holds: LiteSVM keeps no list of all accounts, but only
 * these programs can own one here (no program can be deployed through the JSON-RPC without the
 * upgradeable loader, which is listed).
 */
const OWNERS = [
  '11111111111111111111111111111111',
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  'NativeLoader1111111111111111111111111111111',
  'Sysvar1111111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'AddressLookupTab1e1111111111111111111111111',
  'Vote111111111111111111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  'Config1111111111111111111111111111111111111',
];

/** Every account of the chain, as far as the owners above reach. */
function everyAccount(state: LocalnetState): LocalAccount[] {
  return OWNERS.flatMap((owner) => programAccounts(state, owner));
}

/** getSupply: every lamport on the chain; the localnet locks none up, so all of it circulates. */
export function supply(state: LocalnetState): { total: bigint; circulating: bigint } {
  let total = 0n;
  for (const account of everyAccount(state)) total += account.lamports;
  return { total, circulating: total };
}

/** getLargestAccounts: the 20 accounts holding the most lamports. */
export function largestAccounts(state: LocalnetState): { address: string; lamports: bigint }[] {
  return everyAccount(state)
    .map(({ address, lamports }) => ({ address, lamports }))
    .sort((a, b) => (a.lamports === b.lamports ? 0 : a.lamports > b.lamports ? -1 : 1))
    .slice(0, 20);
}
