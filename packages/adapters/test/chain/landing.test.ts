import {
  ACCOUNT_SIZE,
  AccountLayout,
  AccountState,
  ASSOCIATED_TOKEN_PROGRAM_ID,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  MintLayout,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { associatedTokenAccount } from '../../src/chain/shared/instructions.js';
import type { Move, TokenMove } from '../../src/chain/shared/intents.js';
import { type AccountView, landingPlan } from '../../src/chain/shared/landing.js';

const SYSTEM = SystemProgram.programId.toBase58();
const TOKEN = TOKEN_PROGRAM_ID.toBase58();
const RENT_FLOOR = 890_880n;
const TOKEN_RENT = 2_039_280n;
const key = () => Keypair.generate().publicKey;

function mintData(decimals: number, initialized = true): Uint8Array {
  const data = Buffer.alloc(MINT_SIZE);
  MintLayout.encode(
    {
      mintAuthorityOption: 0,
      mintAuthority: PublicKey.default,
      supply: 1_000_000_000n,
      decimals,
      isInitialized: initialized,
      freezeAuthorityOption: 0,
      freezeAuthority: PublicKey.default,
    },
    data,
  );
  return data;
}

function tokenData(
  mint: PublicKey,
  owner: PublicKey,
  amount: bigint,
  changes: { state?: AccountState; native?: boolean } = {},
): Uint8Array {
  const data = Buffer.alloc(ACCOUNT_SIZE);
  AccountLayout.encode(
    {
      mint,
      owner,
      amount,
      delegateOption: 0,
      delegate: PublicKey.default,
      state: changes.state ?? AccountState.Initialized,
      isNativeOption: changes.native ? 1 : 0,
      isNative: changes.native ? 2_039_280n : 0n,
      delegatedAmount: 0n,
      closeAuthorityOption: 0,
      closeAuthority: PublicKey.default,
    },
    data,
  );
  return data;
}

/** A chain of accounts in memory, as `landingPlan` reads it. */
function world() {
  const accounts = new Map<string, AccountView>();
  return {
    accounts,
    set(address: PublicKey, view: AccountView) {
      accounts.set(address.toBase58(), view);
    },
    reads: {
      account: async (address: string) => accounts.get(address) ?? null,
      rentExemption: (space: number) => (space === 0 ? RENT_FLOOR : TOKEN_RENT),
    },
  };
}

function setup(decimals = 6) {
  const w = world();
  const payer = key();
  const mint = key();
  const from = key();
  const to = key();
  w.set(payer, { owner: SYSTEM, lamports: 10_000_000n, data: new Uint8Array() });
  w.set(mint, { owner: TOKEN, lamports: 1n, data: mintData(decimals) });
  const source = associatedTokenAccount(mint, from, TOKEN_PROGRAM_ID);
  const destination = associatedTokenAccount(mint, to, TOKEN_PROGRAM_ID);
  w.set(source.address, { owner: TOKEN, lamports: TOKEN_RENT, data: tokenData(mint, from, 500n) });
  const move = (amount: bigint, changes: Partial<TokenMove> = {}): TokenMove => ({
    kind: 'token',
    mint,
    decimals,
    tokenProgram: TOKEN_PROGRAM_ID,
    from,
    to,
    source,
    destination,
    amount,
    ...changes,
  });
  return { w, payer, mint, from, to, source, destination, move };
}

describe('landingPlan: token transfers', () => {
  it('plans a transfer to a missing token account: created, its rent on the fee payer', async () => {
    const { w, payer, destination, move } = setup();
    const plan = await landingPlan(w.reads, [move(200n)], payer);
    expect(plan?.shape).toBe(`transfers:token+${255 - destination.bump}`);
    expect(plan!.lands(10_000n)).toBe(true);
    // The payer must keep the fee, the new account's rent and its own rent floor (or nothing).
    expect(plan!.lands(10_000_000n - TOKEN_RENT)).toBe(true);
    expect(plan!.lands(10_000_000n - TOKEN_RENT + 1n)).toBe(false);
    expect(plan!.lands(10_000_000n - TOKEN_RENT - RENT_FLOOR + 1n)).toBe(false);
  });

  it('plans a transfer to an existing account, and a second transfer of what the first brought', async () => {
    const { w, payer, mint, to, destination, move } = setup();
    w.set(destination.address, { owner: TOKEN, lamports: TOKEN_RENT, data: tokenData(mint, to, 0n) });
    const plan = await landingPlan(w.reads, [move(200n)], payer);
    expect(plan?.shape).toBe(`transfers:token=${255 - destination.bump}`);
    // Onward from the recipient: it can pass on what it just received, not more.
    const onward = associatedTokenAccount(mint, payer, TOKEN_PROGRAM_ID);
    const next = (amount: bigint) =>
      move(amount, { from: to, to: payer, source: destination, destination: onward });
    expect(await landingPlan(w.reads, [move(200n), next(200n)], payer)).toBeDefined();
    expect(await landingPlan(w.reads, [move(200n), next(201n)], payer)).toBeUndefined();
  });

  it('leaves to the simulation what it cannot be sure of', async () => {
    type Setup = ReturnType<typeof setup>;
    /** A one-unit transfer after the account at `address` is replaced by a token account. */
    const after =
      (at: (s: Setup) => PublicKey, data: (s: Setup) => Uint8Array, owner = TOKEN) =>
      (s: Setup): Move[] => {
        s.w.set(at(s), { owner, lamports: TOKEN_RENT, data: data(s) });
        return [s.move(1n)];
      };
    const source = (s: Setup) => s.source.address;
    const frozen = { state: AccountState.Frozen };
    const cases: Array<[string, (s: Setup) => Move[]]> = [
      ['more than the sender holds', (s) => [s.move(501n)]],
      ['a frozen source', after(source, (s) => tokenData(s.mint, s.from, 500n, frozen))],
      ['a wrapped SOL source', after(source, (s) => tokenData(s.mint, s.from, 500n, { native: true }))],
      ['a source of another mint', after(source, (s) => tokenData(key(), s.from, 500n))],
      ['a source owned by someone else', after(source, (s) => tokenData(s.mint, key(), 500n))],
      [
        'a missing source',
        (s) => {
          s.w.accounts.delete(s.source.address.toBase58());
          return [s.move(1n)];
        },
      ],
      [
        'a frozen recipient',
        after(
          (s) => s.destination.address,
          (s) => tokenData(s.mint, s.to, 0n, frozen),
        ),
      ],
      [
        'lamports at the recipient address but no account',
        after(
          (s) => s.destination.address,
          () => new Uint8Array(),
          SYSTEM,
        ),
      ],
      ['decimals other than the mint says', (s) => [s.move(1n, { decimals: 9 })]],
      [
        'an uninitialized mint',
        after(
          (s) => s.mint,
          () => mintData(6, false),
        ),
      ],
      ['a Token-2022 transfer', (s) => [s.move(1n, { tokenProgram: TOKEN_2022_PROGRAM_ID })]],
      ['a transfer to oneself', (s) => [s.move(1n, { to: s.from, destination: s.source })]],
      [
        'a fee payer that is a token account',
        after(
          (s) => s.payer,
          () => new Uint8Array(165),
        ),
      ],
    ];
    for (const [what, moves] of cases) {
      const s = setup();
      expect(await landingPlan(s.w.reads, moves(s), s.payer), what).toBeUndefined();
    }
  });

  it('plans SOL and tokens together (a swap), with the SOL legs checked against the fee', async () => {
    const { w, payer, to, move } = setup();
    w.set(to, { owner: SYSTEM, lamports: 1_000_000_000n, data: new Uint8Array() });
    const sol: Move = { kind: 'sol', from: to, to: payer, lamports: 400_000_000n };
    const plan = await landingPlan(w.reads, [sol, move(100n)], payer);
    expect(plan?.shape).toMatch(/^transfers:sol,token\+\d+$/);
    expect(plan!.lands(5_000n)).toBe(true);
    // Leaving the user neither empty nor rent-exempt.
    const dust: Move = { ...sol, lamports: 1_000_000_000n - 1n };
    expect((await landingPlan(w.reads, [dust, move(100n)], payer))!.lands(5_000n)).toBe(false);
  });
});

describe('associatedTokenAccount', () => {
  it('derives the address spl-token does, with the bump the associated token program finds', () => {
    const mint = key();
    const offCurve = PublicKey.findProgramAddressSync([Buffer.from('vault')], SystemProgram.programId)[0];
    for (const owner of [...Array.from({ length: 20 }, key), offCurve]) {
      const { address, bump } = associatedTokenAccount(mint, owner, TOKEN_PROGRAM_ID);
      expect(address.equals(getAssociatedTokenAddressSync(mint, owner, true, TOKEN_PROGRAM_ID))).toBe(true);
      const seeds = [owner.toBuffer(), TOKEN_PROGRAM_ID.toBuffer(), mint.toBuffer()];
      expect(
        PublicKey.createProgramAddressSync(
          [...seeds, Buffer.from([bump])],
          ASSOCIATED_TOKEN_PROGRAM_ID,
        ).equals(address),
      ).toBe(true);
      // No higher bump gives an address off the curve: the program tries them first.
      for (let higher = bump + 1; higher <= 255; higher++) {
        expect(() =>
          PublicKey.createProgramAddressSync([...seeds, Buffer.from([higher])], ASSOCIATED_TOKEN_PROGRAM_ID),
        ).toThrow();
      }
    }
  });
});
