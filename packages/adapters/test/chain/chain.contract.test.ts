import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { PublicKey as Web3PublicKey } from '@solana/web3.js';
import {
  type ChainPort,
  type Currencies,
  type Currency,
  encodeBase58,
  type PreparedTransaction,
  type PublicKey,
} from '@token-actions/core';
import { createFakeChain } from '@token-actions/core/testing';
import { createLocalnet, startLocalnetRpc } from '@token-actions/localnet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessChain, createRpcChain, discoverRpcCurrencies } from '../../src/chain/index.js';
import { associatedTokenAccount } from '../../src/chain/shared/instructions.js';
import { newKey, signPrepared, type TestKey } from './keys.js';

const SOL = 1_000_000_000n;
const VALIDITY = 10;
const FINALITY = 4;

interface Harness {
  readonly chain: ChainPort;
  readonly currencies: Currencies;
  advance(slots: number): void;
  fund(owner: PublicKey, lamports: bigint): void;
  close(): void;
  /** Simulations the chain has run so far (the localnet's, whoever asked for them). */
  simulations?(): number;
}

/** Counts the localnet's simulations, the in-process adapter's and those its JSON-RPC serves. */
function countSimulations(localnet: Awaited<ReturnType<typeof createLocalnet>>): () => number {
  let count = 0;
  const simulate = localnet.simulateWire.bind(localnet);
  localnet.simulateWire = (...args) => {
    count++;
    return simulate(...args);
  };
  return () => count;
}

const harnesses: [string, () => Promise<Harness>][] = [
  [
    'fake chain',
    async () => {
      const chain = createFakeChain({ finalityDepthSlots: FINALITY, blockhashValiditySlots: VALIDITY });
      return {
        chain,
        currencies: chain.currencies,
        advance: (n) => chain.advance(n),
        fund: (owner, lamports) => void chain.fund(owner, lamports),
        close: () => {},
      };
    },
  ],
  [
    'in-process chain on the localnet',
    async () => {
      const localnet = await createLocalnet({
        slotIntervalMs: 0,
        finalityDepthSlots: FINALITY,
        blockhashValiditySlots: VALIDITY,
      });
      return {
        simulations: countSimulations(localnet),
        chain: createInProcessChain(localnet),
        currencies: localnet.currencies,
        advance: (n) => localnet.tick(n),
        fund: (owner, lamports) => void localnet.fund(owner, lamports),
        close: () => localnet.close(),
      };
    },
  ],
  [
    'rpc chain on the localnet JSON-RPC',
    async () => {
      const localnet = await createLocalnet({
        slotIntervalMs: 0,
        finalityDepthSlots: FINALITY,
        blockhashValiditySlots: VALIDITY,
      });
      const rpc = await startLocalnetRpc(localnet, { port: 0 });
      const { currencies } = await discoverRpcCurrencies({ rpcUrl: rpc.url });
      // No blockhash cache: the tests move the chain between prepares.
      const chain = createRpcChain({ rpcUrl: rpc.url, cluster: 'localnet', currencies, blockhashCacheMs: 0 });
      return {
        simulations: countSimulations(localnet),
        chain,
        currencies,
        advance: (n) => localnet.tick(n),
        fund: (owner, lamports) => void localnet.fund(owner, lamports),
        close: () => {
          void rpc.close();
          localnet.close();
        },
      };
    },
  ],
];

describe.each(harnesses)('ChainPort contract: %s', (name, make) => {
  let h: Harness;
  let chain: ChainPort;
  let payer: TestKey;

  beforeAll(async () => {
    h = await make();
    chain = h.chain;
    payer = newKey();
    h.fund(payer.address, 100n * SOL);
  });
  afterAll(() => h.close());

  const balance = async (owner: PublicKey, currency: Currency) =>
    (await chain.getBalance(owner, currency))._unsafeUnwrap();

  const prepareTransfer = async (
    currency: Currency,
    from: TestKey,
    to: PublicKey,
    amount: bigint,
    price = 1_000n,
  ) =>
    (
      await chain.prepare(
        { kind: 'transfer', currency, from: from.address, to, amount },
        {
          feePayer: payer.address,
          computeUnitPrice: price,
        },
      )
    )._unsafeUnwrap();

  const send = async (prepared: PreparedTransaction, keys: TestKey[]) =>
    (await chain.send(signPrepared(prepared, keys)))._unsafeUnwrap();

  const status = async (id: string) => (await chain.getStatuses([id as never]))._unsafeUnwrap()[0];

  it('reports a cluster and SPL currencies with mints', () => {
    expect(chain.cluster.rpcUrl).toMatch(/^https?:\/\//);
    expect(h.currencies.native.mint).toBeUndefined();
    expect(h.currencies.stable.decimals).toBe(6);
    expect(h.currencies.stable.mint).toBeTruthy();
    expect(h.currencies.project.mint).toBeTruthy();
    expect(h.currencies.project.tokenProgram).toBeTruthy();
  });

  it('transfers SOL: exact balance changes, fee as prepared, processed -> confirmed -> finalized', async () => {
    const sender = newKey();
    const recipient = newKey();
    h.fund(sender.address, 5n * SOL);
    const payerBefore = await balance(payer.address, h.currencies.native);

    const prepared = await prepareTransfer(
      h.currencies.native,
      sender,
      recipient.address,
      1_500_000_000n,
      5_000n,
    );
    expect(prepared.signers).toEqual([payer.address, sender.address]);
    expect(prepared.computeUnitPrice).toBe(5_000n);
    expect(prepared.computeUnitLimit).toBeGreaterThan(0);
    expect(prepared.feeLamports).toBe(
      10_000n + (5_000n * BigInt(prepared.computeUnitLimit) + 999_999n) / 1_000_000n,
    );
    expect(prepared.writableAccounts).toEqual(
      expect.arrayContaining([payer.address, sender.address, recipient.address]),
    );
    const height = (await chain.getBlockHeight())._unsafeUnwrap();
    expect(prepared.lastValidBlockHeight).toBe(height + BigInt(VALIDITY));

    const id = await send(prepared, [payer, sender]);
    expect(await balance(sender.address, h.currencies.native)).toBe(5n * SOL - 1_500_000_000n);
    expect(await balance(recipient.address, h.currencies.native)).toBe(1_500_000_000n);
    expect(await balance(payer.address, h.currencies.native)).toBe(payerBefore - prepared.feeLamports);

    expect(await status(id)).toMatchObject({ commitment: 'processed' });
    expect((await status(id))?.error).toBeUndefined();
    h.advance(1);
    expect(await status(id)).toMatchObject({ commitment: 'confirmed' });
    h.advance(FINALITY);
    expect(await status(id)).toMatchObject({ commitment: 'finalized' });
  });

  it.each(['stable', 'project'] as const)(
    'transfers the %s token to a wallet without a token account',
    async (kind) => {
      const currency = h.currencies[kind];
      const sender = newKey();
      const recipient = newKey();
      const funded = (
        await chain.airdrop(sender.address, currency, 250n * 10n ** BigInt(currency.decimals))
      )._unsafeUnwrap();
      expect(await status(funded)).toMatchObject({ commitment: 'processed' });
      expect(await balance(sender.address, currency)).toBe(250n * 10n ** BigInt(currency.decimals));
      expect(await balance(recipient.address, currency)).toBe(0n);

      const amount = 12n * 10n ** BigInt(currency.decimals) + 345n;
      const prepared = await prepareTransfer(currency, sender, recipient.address, amount);
      const id = await send(prepared, [payer, sender]);
      expect(await balance(sender.address, currency)).toBe(250n * 10n ** BigInt(currency.decimals) - amount);
      expect(await balance(recipient.address, currency)).toBe(amount);
      h.advance(FINALITY);
      expect(await status(id)).toMatchObject({ commitment: 'finalized' });
      expect((await status(id))?.error).toBeUndefined();
    },
  );

  it('refuses to prepare what the sender cannot pay: INSUFFICIENT_FUNDS', async () => {
    const poor = newKey();
    h.fund(poor.address, SOL);
    const sol = await chain.prepare(
      {
        kind: 'transfer',
        currency: h.currencies.native,
        from: poor.address,
        to: newKey().address,
        amount: 2n * SOL,
      },
      { feePayer: payer.address, computeUnitPrice: 0n },
    );
    expect(sol._unsafeUnwrapErr().code).toBe('INSUFFICIENT_FUNDS');

    const token = await chain.prepare(
      {
        kind: 'transfer',
        currency: h.currencies.stable,
        from: poor.address,
        to: newKey().address,
        amount: 1n,
      },
      { feePayer: payer.address, computeUnitPrice: 0n },
    );
    expect(token._unsafeUnwrapErr().code).toBe('INSUFFICIENT_FUNDS');

    const broke = newKey();
    const feeless = await chain.prepare(
      {
        kind: 'transfer',
        currency: h.currencies.native,
        from: poor.address,
        to: newKey().address,
        amount: SOL / 10n,
      },
      { feePayer: broke.address, computeUnitPrice: 0n },
    );
    expect(feeless._unsafeUnwrapErr().code).toBe('INSUFFICIENT_FUNDS');
  });

  // The in-process adapter sizes a SOL transfer of a shape it has simulated from that simulation,
  // when its accounts show it certainly executes. Over JSON-RPC every prepare simulates (the
  // contract's other tests hold it to the same answers); the fake chain never simulates.
  if (name === 'in-process chain on the localnet')
    it('prepares SOL transfers of a simulated shape without simulating them, and they land', async () => {
      const native = h.currencies.native;
      const simulated = async <T>(prepare: () => PromiseLike<T>) => {
        const before = h.simulations!();
        const out = await prepare();
        return { out, simulations: h.simulations!() - before };
      };
      const sender = newKey();
      h.fund(sender.address, 5n * SOL);
      const first = await prepareTransfer(native, sender, newKey().address, SOL);
      const recipient = newKey();
      const second = await simulated(() =>
        prepareTransfer(native, sender, recipient.address, 2n * SOL, 5_000n),
      );
      expect(second.simulations).toBe(0);
      // Sized as the first (each prepare nudges its limit so that no two compile alike).
      expect(Math.abs(second.out.computeUnitLimit - first.computeUnitLimit)).toBeLessThan(10_000);
      expect(second.out.feeLamports).toBe(
        10_000n + (5_000n * BigInt(second.out.computeUnitLimit) + 999_999n) / 1_000_000n,
      );
      const payerBefore = await balance(payer.address, native);
      const id = await send(second.out, [payer, sender]);
      expect((await status(id))?.error).toBeUndefined();
      expect(await balance(recipient.address, native)).toBe(2n * SOL);
      expect(await balance(sender.address, native)).toBe(3n * SOL);
      expect(await balance(payer.address, native)).toBe(payerBefore - second.out.feeLamports);

      // What might not execute is simulated, so the error is the chain's own.
      const transfer = (from: TestKey, to: PublicKey, amount: bigint, feePayer = payer.address) =>
        chain.prepare(
          { kind: 'transfer', currency: native, from: from.address, to, amount },
          { feePayer, computeUnitPrice: 0n },
        );
      const tooMuch = await simulated(() => transfer(sender, newKey().address, 4n * SOL));
      expect(tooMuch.simulations).toBe(1);
      expect(tooMuch.out._unsafeUnwrapErr().code).toBe('INSUFFICIENT_FUNDS');
      const noFee = await simulated(() => transfer(sender, newKey().address, SOL, newKey().address));
      expect(noFee.simulations).toBe(1);
      expect(noFee.out._unsafeUnwrapErr().code).toBe('INSUFFICIENT_FUNDS');
      // Below the rent-exempt minimum, to an account that does not exist yet.
      const dust = await simulated(() => transfer(sender, newKey().address, 1_000n));
      expect(dust.simulations).toBe(1);
      expect(dust.out.isErr()).toBe(true);
      // Leaving the sender neither empty nor rent-exempt.
      const almostAll = await simulated(() => transfer(sender, newKey().address, 3n * SOL - 1_000n));
      expect(almostAll.simulations).toBe(1);
      expect(almostAll.out.isErr()).toBe(true);
      // Everything the sender holds, to an account that exists: certain, so not simulated.
      const all = await simulated(() => transfer(sender, recipient.address, 3n * SOL));
      expect(all.simulations).toBe(0);
      await send(all.out._unsafeUnwrap(), [payer, sender]);
      expect(await balance(sender.address, native)).toBe(0n);
      expect(await balance(recipient.address, native)).toBe(5n * SOL);
    });

  // The same for token transfers of the original SPL Token program, alone or with SOL (a swap),
  // by shape: the recipient's token account there or made here, and the bump of its address.
  if (name === 'in-process chain on the localnet')
    it('prepares token transfers and swaps of a simulated shape without simulating them, and they land', async () => {
      const usdc = h.currencies.stable;
      const native = h.currencies.native;
      const mint = new Web3PublicKey(usdc.mint!);
      const bumpOf = (owner: PublicKey) =>
        associatedTokenAccount(mint, new Web3PublicKey(owner), TOKEN_PROGRAM_ID).bump;
      const walletWithBump = (bump: number) => {
        for (;;) {
          const key = newKey();
          if (bumpOf(key.address) === bump) return key;
        }
      };
      const simulated = async <T>(prepare: () => PromiseLike<T>) => {
        const before = h.simulations!();
        const out = await prepare();
        return { out, simulations: h.simulations!() - before };
      };
      const sender = walletWithBump(255);
      h.fund(sender.address, SOL);
      (await chain.airdrop(sender.address, usdc, 1_000_000n))._unsafeUnwrap();

      // To wallets without a token account: once the shape was simulated (here, or by a test
      // before: the adapter keeps what it learnt), the next is not.
      const [a, b] = [walletWithBump(255), walletWithBump(255)];
      const first = await simulated(() => prepareTransfer(usdc, sender, a.address, 100_000n));
      const second = await simulated(() => prepareTransfer(usdc, sender, b.address, 200_000n));
      expect(second.simulations).toBe(0);
      expect(Math.abs(second.out.computeUnitLimit - first.out.computeUnitLimit)).toBeLessThan(10_000);
      for (const prepared of [first.out, second.out]) {
        expect((await status(await send(prepared, [payer, sender])))?.error).toBeUndefined();
      }
      expect(await balance(a.address, usdc)).toBe(100_000n);
      expect(await balance(b.address, usdc)).toBe(200_000n);
      // To token accounts that exist: a shape of its own.
      const third = await simulated(() => prepareTransfer(usdc, sender, a.address, 1n));
      const fourth = await simulated(() => prepareTransfer(usdc, sender, b.address, 2n));
      expect(fourth.simulations).toBe(0);
      for (const prepared of [third.out, fourth.out]) {
        expect((await status(await send(prepared, [payer, sender])))?.error).toBeUndefined();
      }
      expect(await balance(a.address, usdc)).toBe(100_001n);
      expect(await balance(b.address, usdc)).toBe(200_002n);
      expect(await balance(sender.address, usdc)).toBe(699_997n);

      // What might not execute is simulated: a fee payer that can pay the fee but not the new
      // account's rent.
      const poor = newKey();
      h.fund(poor.address, 1_000_000n);
      const unpaid = await simulated(() =>
        chain.prepare(
          {
            kind: 'transfer',
            currency: usdc,
            from: sender.address,
            to: walletWithBump(255).address,
            amount: 5n,
          },
          { feePayer: poor.address, computeUnitPrice: 0n },
        ),
      );
      expect(unpaid.simulations).toBe(1);
      expect(unpaid.out.isErr()).toBe(true);

      // A swap: the user's SOL to a vault, the vault's tokens to the user, the vault paying the fee.
      const vault = newKey();
      h.fund(vault.address, 10n * SOL);
      (await chain.airdrop(vault.address, usdc, 50_000_000n))._unsafeUnwrap();
      const swap = (user: TestKey, lamports: bigint, units: bigint) =>
        simulated(async () =>
          (
            await chain.prepare(
              {
                kind: 'transfers',
                legs: [
                  { currency: native, from: user.address, to: vault.address, amount: lamports },
                  { currency: usdc, from: vault.address, to: user.address, amount: units },
                ],
              },
              { feePayer: vault.address, computeUnitPrice: 1_000n },
            )
          )._unsafeUnwrap(),
        );
      const users = [walletWithBump(255), walletWithBump(255)];
      for (const user of users) h.fund(user.address, SOL);
      const swaps = [
        await swap(users[0]!, SOL / 10n, 1_000_000n),
        await swap(users[1]!, SOL / 5n, 2_000_000n),
      ];
      expect(swaps[1]!.simulations).toBe(0);
      for (const [i, user] of users.entries()) {
        expect((await status(await send(swaps[i]!.out, [vault, user])))?.error).toBeUndefined();
      }
      expect(await balance(users[0]!.address, native)).toBe(SOL - SOL / 10n);
      expect(await balance(users[1]!.address, usdc)).toBe(2_000_000n);
      expect(await balance(vault.address, usdc)).toBe(47_000_000n);
    });

  if (name === 'rpc chain on the localnet JSON-RPC')
    it('simulates every SOL transfer it prepares, however often its shape was simulated', async () => {
      const sender = newKey();
      h.fund(sender.address, 5n * SOL);
      await prepareTransfer(h.currencies.native, sender, newKey().address, SOL);
      const before = h.simulations!();
      await prepareTransfer(h.currencies.native, sender, newKey().address, SOL);
      expect(h.simulations!() - before).toBe(1);
    });

  it('records a transaction that lands but fails, with its error', async () => {
    const currency = h.currencies.stable;
    const sender = newKey();
    (await chain.airdrop(sender.address, currency, 100n))._unsafeUnwrap();
    const first = await prepareTransfer(currency, sender, newKey().address, 60n);
    const second = await prepareTransfer(currency, sender, newKey().address, 60n);
    const payerBefore = await balance(payer.address, h.currencies.native);
    await send(first, [payer, sender]);
    const failedId = await send(second, [payer, sender]);
    const failed = await status(failedId);
    expect(failed?.error).toMatch(/insufficient/i);
    expect(await balance(sender.address, currency)).toBe(40n);
    // The failed one still paid its fee.
    expect(await balance(payer.address, h.currencies.native)).toBeLessThanOrEqual(
      payerBefore - first.feeLamports - second.feeLamports,
    );
  });

  it('executes a signed transaction once however often it is sent', async () => {
    const sender = newKey();
    const recipient = newKey();
    h.fund(sender.address, 3n * SOL);
    const prepared = await prepareTransfer(h.currencies.native, sender, recipient.address, SOL);
    const wire = signPrepared(prepared, [payer, sender]);
    const first = (await chain.send(wire))._unsafeUnwrap();
    const again = (await chain.send(wire))._unsafeUnwrap();
    h.advance(1);
    const third = (await chain.send(wire))._unsafeUnwrap();
    expect(again).toBe(first);
    expect(third).toBe(first);
    expect(await balance(recipient.address, h.currencies.native)).toBe(SOL);
    expect(await balance(sender.address, h.currencies.native)).toBe(2n * SOL);
  });

  it('prepares distinct transactions for identical intents', async () => {
    const sender = newKey();
    const recipient = newKey();
    h.fund(sender.address, 3n * SOL);
    const a = await prepareTransfer(h.currencies.native, sender, recipient.address, SOL / 2n);
    const b = await prepareTransfer(h.currencies.native, sender, recipient.address, SOL / 2n);
    const idA = await send(a, [payer, sender]);
    const idB = await send(b, [payer, sender]);
    expect(idA).not.toBe(idB);
    expect(await balance(recipient.address, h.currencies.native)).toBe(SOL);
  });

  it('settles a pool swap as one atomic transfers transaction: user -> vault, vault -> user', async () => {
    const user = newKey();
    const vault = newKey();
    h.fund(user.address, 3n * SOL);
    h.fund(vault.address, 2n * SOL);
    const usdc = h.currencies.stable;
    (await chain.airdrop(vault.address, usdc, 1_000_000_000n))._unsafeUnwrap();
    const legs = [
      { currency: h.currencies.native, from: user.address, to: vault.address, amount: SOL },
      { currency: usdc, from: vault.address, to: user.address, amount: 149_401_047n },
    ];
    // The vault pays the fee (a firm quote): it signs first, the user second.
    const prepared = (
      await chain.prepare({ kind: 'transfers', legs }, { feePayer: vault.address, computeUnitPrice: 1_000n })
    )._unsafeUnwrap();
    expect(prepared.signers).toEqual([vault.address, user.address]);
    const vaultSol = await balance(vault.address, h.currencies.native);
    const id = await send(prepared, [vault, user]);
    expect(await balance(user.address, h.currencies.native)).toBe(2n * SOL);
    expect(await balance(user.address, usdc)).toBe(149_401_047n);
    expect(await balance(vault.address, usdc)).toBe(1_000_000_000n - 149_401_047n);
    const rent = vaultSol + SOL - prepared.feeLamports - (await balance(vault.address, h.currencies.native));
    expect(rent).toBeGreaterThanOrEqual(0n); // the user's new token account, paid by the fee payer
    h.advance(FINALITY);
    expect(await status(id)).toMatchObject({ commitment: 'finalized' });

    // All or nothing: a leg the sender cannot pay fails the whole transaction, the other leg too.
    const second = (
      await chain.prepare(
        {
          kind: 'transfers',
          legs: [
            { ...legs[0]!, amount: SOL / 2n },
            { ...legs[1]!, amount: 100_000_000n },
          ],
        },
        { feePayer: vault.address, computeUnitPrice: 0n },
      )
    )._unsafeUnwrap();
    const third = (
      await chain.prepare(
        {
          kind: 'transfers',
          legs: [
            { ...legs[0]!, amount: SOL / 2n },
            { ...legs[1]!, amount: 800_000_000n },
          ],
        },
        { feePayer: vault.address, computeUnitPrice: 0n },
      )
    )._unsafeUnwrap();
    await send(second, [vault, user]);
    const failed = await send(third, [vault, user]);
    expect((await status(failed))?.error).toBeTruthy();
    expect(await balance(user.address, usdc)).toBe(249_401_047n);
    // A user-paid route: the user is the fee payer and signs first.
    const userPaid = (
      await chain.prepare(
        { kind: 'transfers', legs: [{ ...legs[1]!, amount: 1n }] },
        { feePayer: user.address, computeUnitPrice: 0n },
      )
    )._unsafeUnwrap();
    expect(userPaid.signers).toEqual([user.address, vault.address]);
    expect(
      (
        await chain.prepare({ kind: 'transfers', legs: [] }, { feePayer: user.address, computeUnitPrice: 0n })
      )._unsafeUnwrapErr().code,
    ).toBe('INVALID_INPUT');
  });

  it('mints an NFT: metadata readable, supply 1, decimals 0, no mint authority', async () => {
    const authority = newKey();
    const owner = newKey();
    const prepared = (
      await chain.prepare(
        {
          kind: 'mint_nft',
          authority: authority.address,
          owner: owner.address,
          name: 'Token Action #1',
          symbol: 'TACT',
          uri: 'https://example.com/nft/1.json',
        },
        { feePayer: payer.address, computeUnitPrice: 100n },
      )
    )._unsafeUnwrap();
    expect(prepared.mint).toBeTruthy();
    expect(prepared.signers[0]).toBe(payer.address);
    expect(prepared.signers).toEqual(expect.arrayContaining([authority.address, prepared.mint]));
    expect(Object.keys(prepared.presigned)).toEqual([prepared.mint]);
    expect((await chain.getNft(prepared.mint!))._unsafeUnwrap()).toBeNull();

    const id = await send(prepared, [payer, authority]);
    expect((await status(id))?.error).toBeUndefined();
    const nft = (await chain.getNft(prepared.mint!))._unsafeUnwrap();
    expect(nft).toMatchObject({
      mint: prepared.mint,
      name: 'Token Action #1',
      symbol: 'TACT',
      uri: 'https://example.com/nft/1.json',
      updateAuthority: authority.address,
      supply: 1n,
      decimals: 0,
      owner: owner.address,
    });
    expect(nft?.mintAuthority).toBeUndefined();
  });

  it('accepts a blockhash up to its last valid block height and rejects it after', async () => {
    const sender = newKey();
    h.fund(sender.address, 3n * SOL);
    const onTime = await prepareTransfer(h.currencies.native, sender, newKey().address, SOL / 10n);
    const late = await prepareTransfer(h.currencies.native, sender, newKey().address, SOL / 10n);
    const height = (await chain.getBlockHeight())._unsafeUnwrap();
    h.advance(Number(onTime.lastValidBlockHeight - height));
    expect((await chain.getBlockHeight())._unsafeUnwrap()).toBe(onTime.lastValidBlockHeight);
    await send(onTime, [payer, sender]);

    h.advance(1);
    const lateWire = signPrepared(late, [payer, sender]);
    const rejected = await chain.send(lateWire);
    expect(rejected._unsafeUnwrapErr()).toMatchObject({
      code: 'INVALID_INPUT',
      message: 'blockhash not found or expired',
    });
    expect(await status(encodeBase58(lateWire.subarray(1, 65)))).toBeNull();
    expect(await balance(sender.address, h.currencies.native)).toBe(3n * SOL - SOL / 10n);
  });

  it('answers statuses in order, null for unknown ids, and refuses over 256', async () => {
    const unknown = '1'.repeat(64);
    expect((await chain.getStatuses([unknown as never]))._unsafeUnwrap()).toEqual([null]);
    const tooMany = await chain.getStatuses(Array.from({ length: 257 }, () => unknown as never));
    expect(tooMany._unsafeUnwrapErr().code).toBe('INVALID_INPUT');
  });

  it('reports recent prioritization fees for the accounts a transaction wrote', async () => {
    const sender = newKey();
    h.fund(sender.address, 2n * SOL);
    const prepared = await prepareTransfer(h.currencies.native, sender, newKey().address, SOL / 10n, 77_777n);
    // Funding wrote the sender at price 0; a slot of its own keeps the minimum at this price.
    h.advance(1);
    const id = await send(prepared, [payer, sender]);
    const landedAt = (await status(id))!.slot;
    const fees = (await chain.getRecentPrioritizationFees([sender.address]))._unsafeUnwrap();
    expect(fees.length).toBeGreaterThan(0);
    expect(fees.length).toBeLessThanOrEqual(150);
    expect(fees.find((entry) => entry.slot === landedAt)?.fee).toBe(77_777n);
  });

  it('rejects malformed wire bytes with INVALID_INPUT', async () => {
    const result = await chain.send(new Uint8Array([1, 2, 3]));
    expect(result._unsafeUnwrapErr().code).toBe('INVALID_INPUT');
  });
});
