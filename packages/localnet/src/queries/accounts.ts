import { getAssociatedTokenAddressSync, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { PublicKey as Web3PublicKey } from '@solana/web3.js';
import { decodeBase58, encodeBase58 } from '@token-actions/core';
import type { LocalnetState } from '../state.js';
import type { TokenHolding } from '../types.js';

const TOKEN_CLASSIC = TOKEN_PROGRAM_ID.toBase58();
const TOKEN_2022 = TOKEN_2022_PROGRAM_ID.toBase58();
/** getTokenLargestAccounts answers at most this many. */
const LARGEST_HOLDERS = 20;

/** Token amount of an SPL token account (classic or Token-2022): a u64 after mint and owner. */
export function tokenAccountAmount(data: Uint8Array): bigint {
  if (data.length < 72) return 0n;
  return new DataView(data.buffer, data.byteOffset + 64, 8).getBigUint64(0, true);
}

export function isTokenProgram(owner: string): boolean {
  return owner === TOKEN_CLASSIC || owner === TOKEN_2022;
}

/** Whether account data is an SPL token account: 165 bytes, longer only for Token-2022 with extensions. */
export function isTokenAccount(owner: string, data: Uint8Array): boolean {
  if (owner === TOKEN_CLASSIC) return data.length === 165;
  // Token-2022 accounts with extensions say so at byte 165.
  return owner === TOKEN_2022 && (data.length === 165 || (data.length > 165 && data[165] === 2));
}

function heldAt(state: LocalnetState, address: Web3PublicKey, program: string): bigint {
  const found = state.svm.account(address.toBase58(), address.toBytes());
  return found && found.owner === program ? tokenAccountAmount(found.data) : 0n;
}

/** The NFT's owner as it was minted, while that owner still holds it (no scan of the token program). */
export function nftHolder(state: LocalnetState, mint: string): TokenHolding | undefined {
  const owner = state.history.nftOwners.get(mint);
  if (!owner) return undefined;
  const address = getAssociatedTokenAddressSync(
    new Web3PublicKey(mint),
    new Web3PublicKey(owner),
    true,
    TOKEN_2022_PROGRAM_ID,
  );
  const amount = heldAt(state, address, TOKEN_2022);
  return amount > 0n ? { address: address.toBase58(), owner, amount } : undefined;
}

/** Token accounts of a mint, largest first (at most 20). */
export function tokenHolders(state: LocalnetState, mint: string): TokenHolding[] {
  const mintAccount = state.svm.account(mint);
  if (!mintAccount || !isTokenProgram(mintAccount.owner)) return [];
  if (mintAccount.owner === TOKEN_2022) {
    const holder = nftHolder(state, mint);
    if (holder) return [holder];
  }
  const mintBytes = Buffer.from(decodeBase58(mint)!);
  const holdings: TokenHolding[] = [];
  for (const entry of state.svm.native.getProgramAccounts(decodeBase58(mintAccount.owner)!)) {
    const data = entry.account().data();
    if (!isTokenAccount(mintAccount.owner, data) || !mintBytes.equals(Buffer.from(data.subarray(0, 32))))
      continue;
    holdings.push({
      address: encodeBase58(entry.address),
      owner: encodeBase58(data.subarray(32, 64)),
      amount: tokenAccountAmount(data),
    });
  }
  holdings.sort((a, b) => (a.amount === b.amount ? 0 : a.amount > b.amount ? -1 : 1));
  return holdings.slice(0, LARGEST_HOLDERS);
}
