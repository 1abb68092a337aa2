import { type Currency, encodeBase58, type PublicKey } from '@token-actions/core';
import { afterEach, describe, expect, it } from 'vitest';
import { newKey, signPrepared } from './keys.js';
import { type LocalnetChain, openLocalnetChain } from './localnet.js';

const SOL = 1_000_000_000n;
const opened: LocalnetChain[] = [];

async function localnet(config: Parameters<typeof openLocalnetChain>[0] = {}) {
  const chain = await openLocalnetChain({ slotIntervalMs: 0, ...config });
  opened.push(chain);
  return chain;
}

afterEach(() => {
  for (const chain of opened.splice(0)) chain.close();
});

describe('createInProcessChain over a localnet', () => {
  it('derives its mints from the seed, so they survive a restart', async () => {
    const seed = new Uint8Array(32).fill(7);
    const a = await localnet({ seed, projectTicker: 'acme' });
    const b = await localnet({ seed, projectTicker: 'ACME' });
    const c = await localnet({ seed: new Uint8Array(32).fill(8) });
    expect(a.currencies.project.code).toBe('ACME');
    expect(a.currencies.stable.mint).toBe(b.currencies.stable.mint);
    expect(a.currencies.project.mint).toBe(b.currencies.project.mint);
    expect(a.mintAuthority).toBe(b.mintAuthority);
    expect(c.currencies.stable.mint).not.toBe(a.currencies.stable.mint);
    expect(c.currencies.project.code).toBe('PROJ');
    expect(a.cluster).toEqual({ name: 'localnet', rpcUrl: 'http://127.0.0.1:8899' });
  });

  it('advances slots on its timer until closed', async () => {
    const chain = await localnet({ slotIntervalMs: 5, finalityDepthSlots: 3 });
    const payer = newKey();
    chain.fund(payer.address, SOL);
    const prepared = (
      await chain.prepare(
        {
          kind: 'transfer',
          currency: chain.currencies.native,
          from: payer.address,
          to: newKey().address,
          amount: SOL / 10n,
        },
        { feePayer: payer.address, computeUnitPrice: 0n },
      )
    )._unsafeUnwrap();
    const id = (await chain.send(signPrepared(prepared, [payer])))._unsafeUnwrap();
    const start = chain.slot();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(chain.slot()).toBeGreaterThan(start + 3n);
    expect((await chain.getStatuses([id]))._unsafeUnwrap()[0]?.commitment).toBe('finalized');
    chain.close();
    const stopped = chain.slot();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(chain.slot()).toBe(stopped);
  });

  it('sizes the compute-unit limit from simulation with a margin', async () => {
    const chain = await localnet();
    const payer = newKey();
    chain.fund(payer.address, 10n * SOL);
    const sol = (
      await chain.prepare(
        {
          kind: 'transfer',
          currency: chain.currencies.native,
          from: payer.address,
          to: newKey().address,
          amount: SOL,
        },
        { feePayer: payer.address, computeUnitPrice: 10n },
      )
    )._unsafeUnwrap();
    // A SOL transfer with two compute-budget instructions consumes 450 units.
    expect(sol.computeUnitLimit).toBeGreaterThanOrEqual(1_495);
    expect(sol.computeUnitLimit).toBeLessThan(1_495 + 10_000);
    expect(sol.feeLamports).toBe(5_000n + (10n * BigInt(sol.computeUnitLimit) + 999_999n) / 1_000_000n);

    const nft = (
      await chain.prepare(
        {
          kind: 'mint_nft',
          authority: payer.address,
          owner: payer.address,
          name: 'n',
          symbol: 's',
          uri: 'u',
        },
        { feePayer: payer.address, computeUnitPrice: 0n },
      )
    )._unsafeUnwrap();
    expect(nft.signers).toEqual([payer.address, nft.mint]);
    expect(nft.computeUnitLimit).toBeGreaterThan(10_000);
    expect(nft.computeUnitLimit).toBeLessThanOrEqual(1_400_000);
  });

  it('rejects a transaction with a bad signature before execution and records nothing', async () => {
    const chain = await localnet();
    const payer = newKey();
    const recipient = newKey();
    chain.fund(payer.address, SOL);
    const prepared = (
      await chain.prepare(
        {
          kind: 'transfer',
          currency: chain.currencies.native,
          from: payer.address,
          to: recipient.address,
          amount: SOL / 2n,
        },
        { feePayer: payer.address, computeUnitPrice: 0n },
      )
    )._unsafeUnwrap();
    const forged = signPrepared(
      prepared,
      [newKey()].map((k) => ({ ...k, address: payer.address })),
    );
    const result = await chain.send(forged);
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: 'INVALID_INPUT' });
    expect(result._unsafeUnwrapErr().message).toMatch(/signature/);
    expect(
      (await chain.getStatuses([encodeBase58(forged.subarray(1, 65)) as never]))._unsafeUnwrap(),
    ).toEqual([null]);
    expect((await chain.getBalance(recipient.address, chain.currencies.native))._unsafeUnwrap()).toBe(0n);
    // The genuine one still lands.
    expect((await chain.send(signPrepared(prepared, [payer]))).isOk()).toBe(true);
  });

  it('rejects a blockhash it never issued', async () => {
    const other = await localnet({ seed: new Uint8Array(32).fill(1) });
    const chain = await localnet({ seed: new Uint8Array(32).fill(1) });
    other.tick(3);
    const payer = newKey();
    other.fund(payer.address, SOL);
    chain.fund(payer.address, SOL);
    const prepared = (
      await other.prepare(
        {
          kind: 'transfer',
          currency: other.currencies.native,
          from: payer.address,
          to: newKey().address,
          amount: SOL / 2n,
        },
        { feePayer: payer.address, computeUnitPrice: 0n },
      )
    )._unsafeUnwrap();
    const result = await chain.send(signPrepared(prepared, [payer]));
    expect(result._unsafeUnwrapErr()).toMatchObject({
      code: 'INVALID_INPUT',
      message: 'blockhash not found or expired',
    });
  });

  it('explains simulation failures in a short message', async () => {
    const chain = await localnet();
    const payer = newKey();
    chain.fund(payer.address, SOL);
    const tooLittleForRent = await chain.prepare(
      {
        kind: 'transfer',
        currency: chain.currencies.native,
        from: payer.address,
        to: newKey().address,
        amount: 10n,
      },
      { feePayer: payer.address, computeUnitPrice: 0n },
    );
    expect(tooLittleForRent._unsafeUnwrapErr().code).toBe('INSUFFICIENT_FUNDS');
    expect(tooLittleForRent._unsafeUnwrapErr().message).toMatch(/rent-exempt/);

    const overspend = await chain.prepare(
      {
        kind: 'transfer',
        currency: chain.currencies.native,
        from: payer.address,
        to: newKey().address,
        amount: 2n * SOL,
      },
      { feePayer: payer.address, computeUnitPrice: 0n },
    );
    expect(overspend._unsafeUnwrapErr().message).toMatch(
      /^system program failed: Transfer: insufficient lamports \d+, need \d+$/,
    );

    const priority = await chain.prepare(
      {
        kind: 'transfer',
        currency: chain.currencies.native,
        from: payer.address,
        to: newKey().address,
        amount: SOL / 2n,
      },
      { feePayer: payer.address, computeUnitPrice: 10n ** 15n },
    );
    expect(priority._unsafeUnwrapErr()).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      message: 'the fee payer cannot pay the priority fee',
    });

    const tooBig = await chain.prepare(
      {
        kind: 'mint_nft',
        authority: payer.address,
        owner: payer.address,
        name: 'x'.repeat(2_000),
        symbol: 's',
        uri: 'u',
      },
      { feePayer: payer.address, computeUnitPrice: 0n },
    );
    expect(tooBig._unsafeUnwrapErr().code).toBe('INVALID_INPUT');
  });

  it('validates inputs without throwing', async () => {
    const chain = await localnet();
    const payer = newKey();
    const bad = await chain.prepare(
      {
        kind: 'transfer',
        currency: chain.currencies.native,
        from: 'nope' as PublicKey,
        to: payer.address,
        amount: 1n,
      },
      { feePayer: payer.address, computeUnitPrice: 0n },
    );
    expect(bad._unsafeUnwrapErr().code).toBe('INVALID_PUBLIC_KEY');
    const zero = await chain.prepare(
      {
        kind: 'transfer',
        currency: chain.currencies.native,
        from: payer.address,
        to: payer.address,
        amount: 0n,
      },
      { feePayer: payer.address, computeUnitPrice: 0n },
    );
    expect(zero._unsafeUnwrapErr().code).toBe('INVALID_AMOUNT');
    const foreign: Currency = { code: 'BONK', kind: 'stable', decimals: 5, mint: newKey().address };
    expect((await chain.airdrop(payer.address, foreign, 1n))._unsafeUnwrapErr().code).toBe('NOT_SUPPORTED');
    expect((await chain.getBalance(payer.address, foreign))._unsafeUnwrap()).toBe(0n);
    expect((await chain.getNft(chain.currencies.stable.mint!))._unsafeUnwrap()).toBeNull();
    expect((await chain.getNft(newKey().address))._unsafeUnwrap()).toBeNull();
    expect((await chain.send(new Uint8Array(0)))._unsafeUnwrapErr().code).toBe('INVALID_INPUT');
  });

  it('gives repeated identical airdrops distinct transactions', async () => {
    const chain = await localnet();
    const owner = newKey();
    const first = (await chain.airdrop(owner.address, chain.currencies.stable, 5n))._unsafeUnwrap();
    const second = (await chain.airdrop(owner.address, chain.currencies.stable, 5n))._unsafeUnwrap();
    chain.fund(owner.address, SOL);
    chain.fund(owner.address, SOL);
    expect(first).not.toBe(second);
    expect((await chain.getBalance(owner.address, chain.currencies.stable))._unsafeUnwrap()).toBe(10n);
    expect((await chain.getBalance(owner.address, chain.currencies.native))._unsafeUnwrap()).toBe(2n * SOL);
  });
});
