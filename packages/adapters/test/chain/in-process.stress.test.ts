import type { ChainStatus, PreparedTransaction, PublicKey, Signature } from '@token-actions/core';
import { describe, expect, it } from 'vitest';
import { newKey, signPrepared, type TestKey } from './keys.js';
import { type LocalnetChain, openLocalnetChain } from './localnet.js';

const SOL = 1_000_000_000n;

async function statusesOf(chain: LocalnetChain, ids: readonly Signature[]): Promise<(ChainStatus | null)[]> {
  const out: (ChainStatus | null)[] = [];
  for (let i = 0; i < ids.length; i += 256) {
    out.push(...(await chain.getStatuses(ids.slice(i, i + 256)))._unsafeUnwrap());
  }
  return out;
}

// Floating-point arithmetic that a JIT leaving the x87 FPU dirty breaks (see SOLANA-NOTES).
function floatsAreSane(): boolean {
  const values = [1.5, 2.25, 5.5, 0.1, 0.2];
  const sum = values.reduce((a, b) => a + b, 0);
  return 5.5 % 2.25 === 1 && Math.sqrt(2) === Math.SQRT2 && Math.abs(sum - 9.55) < 1e-12;
}

describe('litesvm localnet under load', () => {
  it('lands 3,000 mixed transactions (NFT mints, SOL and token transfers creating accounts) in one process', async () => {
    const chain = await openLocalnetChain({ slotIntervalMs: 0 });
    const treasury = newKey();
    const holder = newKey();
    chain.fund(treasury.address, 1_000_000n * SOL);
    chain.fund(holder.address, SOL);
    const { native, stable, project } = chain.currencies;
    (await chain.airdrop(holder.address, stable, 1_000_000n * 10n ** 6n))._unsafeUnwrap();
    (await chain.airdrop(holder.address, project, 1_000_000n * SOL))._unsafeUnwrap();

    const total = 3_000;
    const ids: Signature[] = [];
    const sent = { stable: 0n, project: 0n, sol: 0n };
    const sample: {
      owner: PublicKey;
      kind: 'nft' | 'sol' | 'stable' | 'project';
      amount: bigint;
      mint?: PublicKey;
    }[] = [];
    const started = performance.now();
    for (let i = 0; i < total; i++) {
      const recipient = newKey().address;
      const options = { feePayer: treasury.address, computeUnitPrice: BigInt(i % 7) * 1_000n };
      let prepared: PreparedTransaction;
      let keys: TestKey[] = [treasury];
      let entry: (typeof sample)[number];
      switch (i % 4) {
        case 0:
          prepared = (
            await chain.prepare(
              {
                kind: 'mint_nft',
                authority: treasury.address,
                owner: recipient,
                name: `Action #${i}`,
                symbol: 'ACT',
                uri: `https://example.com/${i}.json`,
              },
              options,
            )
          )._unsafeUnwrap();
          entry = { owner: recipient, kind: 'nft', amount: 1n, mint: prepared.mint! };
          break;
        case 1: {
          const amount = SOL / 100n + BigInt(i);
          prepared = (
            await chain.prepare(
              { kind: 'transfer', currency: native, from: treasury.address, to: recipient, amount },
              options,
            )
          )._unsafeUnwrap();
          sent.sol += amount;
          entry = { owner: recipient, kind: 'sol', amount };
          break;
        }
        default: {
          const kind = i % 4 === 2 ? 'stable' : 'project';
          const amount = 1_000n + BigInt(i);
          prepared = (
            await chain.prepare(
              {
                kind: 'transfer',
                currency: chain.currencies[kind],
                from: holder.address,
                to: recipient,
                amount,
              },
              options,
            )
          )._unsafeUnwrap();
          keys = [treasury, holder];
          sent[kind] += amount;
          entry = { owner: recipient, kind, amount };
        }
      }
      ids.push((await chain.send(signPrepared(prepared, keys)))._unsafeUnwrap());
      if (i % 97 === 0) sample.push(entry);
      // Roughly what a 400 ms slot holds at this rate; keeps every blockhash well inside its window.
      if (i % 50 === 49) chain.tick(1);
    }
    const elapsedMs = performance.now() - started;
    console.log(
      `stress: ${total} transactions prepared, signed and landed in ${Math.round(elapsedMs)} ms (${Math.round((total * 1000) / elapsedMs)} tx/s)`,
    );

    expect(new Set(ids).size).toBe(total);
    const landed = await statusesOf(chain, ids);
    expect(landed.filter((s) => s === null)).toHaveLength(0);
    expect(landed.filter((s) => s?.error !== undefined).map((s) => s?.error)).toEqual([]);
    chain.tick(32);
    expect((await statusesOf(chain, ids)).every((s) => s?.commitment === 'finalized')).toBe(true);

    expect((await chain.getBalance(holder.address, stable))._unsafeUnwrap()).toBe(
      1_000_000n * 10n ** 6n - sent.stable,
    );
    expect((await chain.getBalance(holder.address, project))._unsafeUnwrap()).toBe(
      1_000_000n * SOL - sent.project,
    );
    for (const entry of sample) {
      if (entry.kind === 'nft') {
        expect((await chain.getNft(entry.mint!))._unsafeUnwrap()).toMatchObject({
          supply: 1n,
          decimals: 0,
          owner: entry.owner,
        });
      } else {
        const currency = entry.kind === 'sol' ? native : chain.currencies[entry.kind];
        expect((await chain.getBalance(entry.owner, currency))._unsafeUnwrap()).toBe(entry.amount);
      }
    }
    expect(floatsAreSane()).toBe(true);
    chain.close();
  }, 120_000);

  it('executes a signed transaction once even after 1,000 others pushed it out of LiteSVM history', async () => {
    // A tiny history makes the adapter's own dedupe the only thing standing between a resend and a second execution.
    const chain = await openLocalnetChain({ slotIntervalMs: 0, historySize: 50 });
    const payer = newKey();
    chain.fund(payer.address, 10_000n * SOL);
    const target = newKey();
    const first = (
      await chain.prepare(
        {
          kind: 'transfer',
          currency: chain.currencies.native,
          from: payer.address,
          to: target.address,
          amount: SOL,
        },
        { feePayer: payer.address, computeUnitPrice: 0n },
      )
    )._unsafeUnwrap();
    const wire = signPrepared(first, [payer]);
    const id = (await chain.send(wire))._unsafeUnwrap();

    for (let i = 0; i < 1_000; i++) {
      const prepared = (
        await chain.prepare(
          {
            kind: 'transfer',
            currency: chain.currencies.native,
            from: payer.address,
            to: newKey().address,
            amount: SOL / 100n,
          },
          { feePayer: payer.address, computeUnitPrice: 0n },
        )
      )._unsafeUnwrap();
      (await chain.send(signPrepared(prepared, [payer])))._unsafeUnwrap();
    }
    expect((await chain.send(wire))._unsafeUnwrap()).toBe(id);
    expect((await chain.getBalance(target.address, chain.currencies.native))._unsafeUnwrap()).toBe(SOL);

    // Once its blockhash is dead the record may be forgotten; the resend is refused, not executed.
    chain.tick(151);
    chain.fund(payer.address, SOL);
    const late = await chain.send(wire);
    expect(late._unsafeUnwrapErr().message).toBe('blockhash not found or expired');
    expect((await chain.getBalance(target.address, chain.currencies.native))._unsafeUnwrap()).toBe(SOL);
    expect(floatsAreSane()).toBe(true);
    chain.close();
  }, 60_000);
});
