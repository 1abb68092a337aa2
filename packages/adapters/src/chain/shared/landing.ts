import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { SystemProgram, type PublicKey as Web3PublicKey } from '@solana/web3.js';
import type { Move, TokenMove } from './intents.js';
import { tokenAccountAmount } from './intents.js';
import { keyName } from './keys.js';

const SYSTEM_PROGRAM = SystemProgram.programId.toBase58();
const TOKEN_PROGRAM = TOKEN_PROGRAM_ID.toBase58();

// SPL Token (the original program) account layouts.
const TOKEN_ACCOUNT_BYTES = 165; // mint 0..32, owner 32..64, amount 64..72, delegate, state 108, is_native 109..121, ...
const TOKEN_ACCOUNT_STATE = 108; // 1 = initialized (2 = frozen)
const TOKEN_ACCOUNT_IS_NATIVE = 109; // COption tag, u32 little-endian: 0 = not a wrapped SOL account
const MINT_BYTES = 82; // mint authority 0..36, supply 36..44, decimals 44, is_initialized 45, freeze authority
const MINT_DECIMALS = 44;
const MINT_INITIALIZED = 45;

export interface AccountView {
  readonly owner: string;
  readonly lamports: bigint;
  readonly data: Uint8Array;
}

export interface LandingReads {
  /** By base58 address. */
  account(address: string): Promise<AccountView | null>;
  rentExemption(space: number): bigint;
}

export interface LandingPlan {
  /**
   * What the transaction's compute units depend on, as a key: two transactions of one shape cost
   * the same units, so one simulation of a shape sizes every later one.
   */
  readonly shape: string;
  /** Whether it certainly executes when its fee payer pays `feeLamports` first. */
  lands(feeLamports: bigint): boolean;
}

/**
 * The shape of a transaction of transfers, and whether it certainly executes, from its accounts as
 * they are now; undefined when its accounts leave either open (then it is simulated, and any error
 * is the chain's own).
 *
 * - A SOL transfer costs the same whoever sends it and whatever it moves. Every account it touches
 *   must be a plain system account (or not exist yet), every sender must hold what it sends when it
 *   sends it, and every one must end empty or rent-exempt.
 * - A token transfer (an idempotent create of the recipient's associated token account, then
 *   `TransferChecked`) is planned for the original SPL Token program only (Token-2022 accounts can
 *   carry extensions that change both the cost and the outcome). The mint must be initialized with
 *   the decimals the transfer states; the sender's account must be its own associated account,
 *   initialized, not frozen, not wrapped SOL, of that mint, holding the amount; the recipient's
 *   account the same or missing (the fee payer pays its rent, and the shape says it is created).
 *   The associated token program derives the recipient's address on chain, trying bumps from 255
 *   down, so the number of tries is part of the shape.
 */
export async function landingPlan(
  reads: LandingReads,
  moves: readonly Move[],
  feePayer: Web3PublicKey,
): Promise<LandingPlan | undefined> {
  const tokenMoves = moves.filter((move): move is TokenMove => move.kind === 'token');
  if (tokenMoves.some((move) => !move.tokenProgram.equals(TOKEN_PROGRAM_ID))) return undefined;

  // Every account read once: the system accounts the lamports move between, then the token side.
  const payer = keyName(feePayer);
  const system = new Set([payer]);
  for (const move of moves) if (move.kind === 'sol') system.add(keyName(move.from)).add(keyName(move.to));
  const tokenSide = new Set<string>();
  for (const move of tokenMoves) {
    tokenSide.add(move.source.base58).add(move.destination.base58).add(keyName(move.mint));
  }
  for (const address of tokenSide) if (system.has(address)) return undefined;
  const addresses = [...system, ...tokenSide];
  const read = await Promise.all(addresses.map((address) => reads.account(address)));
  const accounts = new Map(addresses.map((address, i) => [address, read[i]!]));

  const lamports = new Map<string, bigint>();
  for (const address of system) {
    const account = accounts.get(address);
    if (account && (account.owner !== SYSTEM_PROGRAM || account.data.length > 0)) return undefined;
    lamports.set(address, account?.lamports ?? 0n);
  }

  // The token side does not depend on the fee: checked once, here.
  const tokens = new Map<string, bigint>();
  const shape: string[] = [];
  const steps: Array<{ from: string; to?: string; lamports: bigint }> = [];
  const tokenRent = reads.rentExemption(TOKEN_ACCOUNT_BYTES);
  for (const move of moves) {
    if (move.kind === 'sol') {
      shape.push('sol');
      steps.push({ from: keyName(move.from), to: keyName(move.to), lamports: move.lamports });
      continue;
    }
    if (!isMint(accounts.get(keyName(move.mint)), move.decimals)) return undefined;
    const source = move.source.base58;
    const destination = move.destination.base58;
    if (source === destination) return undefined;
    const held = tokens.get(source) ?? tokenAccount(accounts.get(source), move.mint, move.from);
    if (held === undefined || held < move.amount) return undefined;
    let received = tokens.get(destination);
    let made = false;
    if (received === undefined) {
      const existing = accounts.get(destination);
      if (existing === null) {
        made = true;
        steps.push({ from: payer, lamports: tokenRent });
        received = 0n;
      } else {
        received = tokenAccount(existing, move.mint, move.to);
        if (received === undefined) return undefined;
      }
    }
    tokens.set(source, held - move.amount);
    tokens.set(destination, received + move.amount);
    shape.push(`token${made ? '+' : '='}${255 - move.destination.bump}`);
  }

  const floor = reads.rentExemption(0);
  return {
    shape: `transfers:${shape.join(',')}`,
    lands(feeLamports) {
      const held = new Map(lamports);
      const take = (address: string, amount: bigint) => {
        const has = held.get(address)!;
        if (has < amount) return false;
        held.set(address, has - amount);
        return true;
      };
      if (!take(payer, feeLamports)) return false;
      for (const step of steps) {
        if (!take(step.from, step.lamports)) return false;
        if (step.to !== undefined) held.set(step.to, held.get(step.to)! + step.lamports);
      }
      return [...held.values()].every((left) => left === 0n || left >= floor);
    },
  };
}

function isMint(account: AccountView | null | undefined, decimals: number): boolean {
  return (
    !!account &&
    account.owner === TOKEN_PROGRAM &&
    account.data.length === MINT_BYTES &&
    account.data[MINT_DECIMALS] === decimals &&
    account.data[MINT_INITIALIZED] === 1
  );
}

/** The amount in a plain, initialized token account of `mint` owned by `owner`; else undefined. */
function tokenAccount(
  account: AccountView | null | undefined,
  mint: Web3PublicKey,
  owner: Web3PublicKey,
): bigint | undefined {
  if (!account || account.owner !== TOKEN_PROGRAM || account.data.length !== TOKEN_ACCOUNT_BYTES) {
    return undefined;
  }
  const data = account.data;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (
    !sameBytes(data.subarray(0, 32), mint.toBytes()) ||
    !sameBytes(data.subarray(32, 64), owner.toBytes()) ||
    data[TOKEN_ACCOUNT_STATE] !== 1 ||
    view.getUint32(TOKEN_ACCOUNT_IS_NATIVE, true) !== 0
  ) {
    return undefined;
  }
  return tokenAccountAmount(data);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
