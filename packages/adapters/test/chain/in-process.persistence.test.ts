import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  encodeBase58,
  fromBase64,
  type PublicKey,
  parseTransaction,
  type Signature,
} from '@token-actions/core';
import type { LocalnetConfig } from '@token-actions/localnet';
import { afterAll, describe, expect, it } from 'vitest';
import { CHILD_SEED, childKey } from './fixtures/child-keys.js';
import { newKey, signPrepared } from './keys.js';
import { type LocalnetChain, openLocalnetChain } from './localnet.js';

const SOL = 1_000_000_000n;
const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..', '..');
const directories: string[] = [];

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'localnet-state-'));
  directories.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of directories) rmSync(dir, { recursive: true, force: true });
});

interface ChildLine {
  kind: 'ready' | 'signed' | 'ack' | 'error';
  id?: string;
  to?: string;
  currency?: string;
  amount?: string;
  mint?: string;
  blockhash?: string;
  wire?: string;
  slot?: string;
  message?: string;
}

/** Runs the child localnet until it has acknowledged `acks` sends, then kills it with SIGKILL. */
async function runAndKill(dataDir: string, acks: number): Promise<ChildLine[]> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(here, 'fixtures', 'localnet-child.ts'), dataDir],
    {
      cwd: packageDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const lines: ChildLine[] = [];
  let acked = 0;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal ? 9 : _code)),
  );
  for await (const text of createInterface({ input: child.stdout })) {
    const line = JSON.parse(text) as ChildLine;
    lines.push(line);
    if (line.kind === 'error') throw new Error(`child failed: ${line.message}`);
    if (line.kind === 'ack' && ++acked === acks) child.kill('SIGKILL');
  }
  const code = await exited;
  if (acked < acks) throw new Error(`child stopped early (exit ${code}): ${stderr.slice(-2_000)}`);
  return lines;
}

const open = (dataDir: string, extra: LocalnetConfig = {}) =>
  openLocalnetChain({ dataDir, seed: CHILD_SEED, slotIntervalMs: 0, finalityDepthSlots: 4, ...extra });

describe('the in-process chain over a persistent localnet', () => {
  it('keeps every acknowledged send through kill -9 (twice), executes nothing twice, issues new blockhashes', async () => {
    const dataDir = freshDir();
    const first = await runAndKill(dataDir, 40);
    const second = await runAndKill(dataDir, 40);
    const lines = [...first, ...second];
    const signed = lines.filter((line) => line.kind === 'signed');
    const acked = new Set(lines.filter((line) => line.kind === 'ack').map((line) => line.id));
    const maxAckedSlot = lines
      .filter((line) => line.kind === 'ack')
      .reduce((max, line) => (BigInt(line.slot!) > max ? BigInt(line.slot!) : max), 0n);
    expect(acked.size).toBeGreaterThanOrEqual(80);
    expect(signed.some((line) => line.currency === 'NFT' && acked.has(line.id))).toBe(true);

    const chain = await open(dataDir);
    try {
      const { native, stable } = chain.currencies;
      expect(chain.slot()).toBeGreaterThan(maxAckedSlot);
      const balanceOf = async (owner: string, currency: 'SOL' | 'USDC') =>
        (await chain.getBalance(owner as PublicKey, currency === 'SOL' ? native : stable))._unsafeUnwrap();

      // Acknowledged sends are all there; an unacknowledged one either landed whole or not at all.
      for (const line of signed) {
        const status = (await chain.getStatuses([line.id as Signature]))._unsafeUnwrap()[0];
        if (acked.has(line.id)) {
          expect(status, `status of ${line.id}`).not.toBeNull();
          expect(status?.error).toBeUndefined();
        }
        if (line.currency === 'NFT') {
          const nft = (await chain.getNft(line.mint as PublicKey))._unsafeUnwrap();
          if (acked.has(line.id)) expect(nft?.owner).toBe(line.to);
          expect(nft === null || nft.owner === line.to).toBe(true);
        } else {
          const balance = await balanceOf(line.to!, line.currency as 'SOL' | 'USDC');
          if (acked.has(line.id)) expect(balance).toBe(BigInt(line.amount!));
          else expect([0n, BigInt(line.amount!)]).toContain(balance);
        }
      }

      // Every signed transaction sent again: accepted, and none executes a second time.
      for (const line of signed) {
        const result = await chain.send(fromBase64(line.wire!)!);
        expect(result._unsafeUnwrap()).toBe(line.id);
      }
      let usdcOut = 0n;
      for (const line of signed) {
        if (line.currency === 'NFT') {
          expect((await chain.getNft(line.mint as PublicKey))._unsafeUnwrap()?.owner).toBe(line.to);
          continue;
        }
        const balance = await balanceOf(line.to!, line.currency as 'SOL' | 'USDC');
        expect(balance).toBe(BigInt(line.amount!));
        if (line.currency === 'USDC') usdcOut += balance;
      }
      expect(usdcOut + (await balanceOf(childKey('sender').address, 'USDC'))).toBe(1_000_000_000_000n);

      // A message compiled now never reuses a blockhash from before a restart.
      const before = new Set(signed.map((line) => line.blockhash));
      const payer = childKey('payer');
      const fresh = (
        await chain.prepare(
          { kind: 'transfer', currency: native, from: payer.address, to: newKey().address, amount: SOL },
          { feePayer: payer.address, computeUnitPrice: 0n },
        )
      )._unsafeUnwrap();
      expect(before.has(fresh.blockhash)).toBe(false);
      expect((await chain.send(signPrepared(fresh, [payer]))).isOk()).toBe(true);

      // Old transactions are tracked to finality and readable in full.
      chain.tick(5);
      const oldest = signed.find((line) => acked.has(line.id))!;
      expect((await chain.getStatuses([oldest.id as Signature]))._unsafeUnwrap()[0]?.commitment).toBe(
        'finalized',
      );
      const record = chain.transaction(oldest.id!);
      expect(record?.fee).toBeGreaterThan(0n);
      expect(encodeBase58(record!.wire.subarray(1, 65))).toBe(oldest.id);
    } finally {
      chain.close();
    }
  }, 120_000);

  it('reopens after close with compaction: balances, statuses, history, issued blockhashes, NFT owners', async () => {
    const dataDir = freshDir();
    const config = { compactJournalBytes: 1, blockhashValiditySlots: 150 };
    let chain: LocalnetChain = await open(dataDir, config);
    const payer = newKey();
    const holder = newKey();
    chain.fund(payer.address, 100n * SOL);
    (await chain.airdrop(holder.address, chain.currencies.project, 5_000n))._unsafeUnwrap();
    const transfer = (
      await chain.prepare(
        {
          kind: 'transfer',
          currency: chain.currencies.native,
          from: payer.address,
          to: holder.address,
          amount: 3n * SOL,
        },
        { feePayer: payer.address, computeUnitPrice: 2_000n },
      )
    )._unsafeUnwrap();
    const transferId = (await chain.send(signPrepared(transfer, [payer])))._unsafeUnwrap();
    const mint = (
      await chain.prepare(
        {
          kind: 'mint_nft',
          authority: payer.address,
          owner: holder.address,
          name: 'Kept',
          symbol: 'K',
          uri: 'u',
        },
        { feePayer: payer.address, computeUnitPrice: 0n },
      )
    )._unsafeUnwrap();
    const mintId = (await chain.send(signPrepared(mint, [payer])))._unsafeUnwrap();
    // Signed before the restart, sent after it.
    const later = (
      await chain.prepare(
        {
          kind: 'transfer',
          currency: chain.currencies.native,
          from: payer.address,
          to: newKey().address,
          amount: SOL,
        },
        { feePayer: payer.address, computeUnitPrice: 0n },
      )
    )._unsafeUnwrap();
    const laterWire = signPrepared(later, [payer]);
    const payerBalance = (await chain.getBalance(payer.address, chain.currencies.native))._unsafeUnwrap();
    const slotBefore = chain.slot();
    chain.close();

    for (let round = 0; round < 2; round++) {
      chain = await open(dataDir, config);
      expect(chain.slot()).toBeGreaterThan(slotBefore);
      expect((await chain.getBalance(payer.address, chain.currencies.native))._unsafeUnwrap()).toBe(
        round === 0 ? payerBalance : payerBalance - later.feeLamports - SOL,
      );
      expect((await chain.getBalance(holder.address, chain.currencies.native))._unsafeUnwrap()).toBe(
        3n * SOL,
      );
      expect((await chain.getBalance(holder.address, chain.currencies.project))._unsafeUnwrap()).toBe(5_000n);
      expect((await chain.getNft(mint.mint!))._unsafeUnwrap()).toMatchObject({
        name: 'Kept',
        owner: holder.address,
      });
      const statuses = (await chain.getStatuses([transferId, mintId]))._unsafeUnwrap();
      expect(statuses.every((status) => status !== null && status.error === undefined)).toBe(true);
      expect(chain.transaction(transferId)?.logs.length).toBeGreaterThan(0);
      expect(
        (await chain.getRecentPrioritizationFees([payer.address]))._unsafeUnwrap().length,
      ).toBeGreaterThan(0);
      // Sent twice across restarts, executed once.
      expect((await chain.send(laterWire))._unsafeUnwrap()).toBe(encodeBase58(laterWire.subarray(1, 65)));
      chain.close();
    }
    const files = readdirSync(join(dataDir, 'localnet')).sort();
    expect(files).toContain('snapshot.jsonl');
    expect(files.filter((name) => name.startsWith('journal-'))).toHaveLength(1);
  });

  it('costs one appended, fsynced write per send', async () => {
    const measure = async (dataDir?: string) => {
      const chain = await openLocalnetChain({ slotIntervalMs: 0, ...(dataDir ? { dataDir } : {}) });
      const payer = newKey();
      chain.fund(payer.address, 1_000n * SOL);
      const wires: Uint8Array[] = [];
      for (let i = 0; i < 300; i++) {
        const prepared = (
          await chain.prepare(
            {
              kind: 'transfer',
              currency: chain.currencies.native,
              from: payer.address,
              to: newKey().address,
              amount: SOL,
            },
            { feePayer: payer.address, computeUnitPrice: 0n },
          )
        )._unsafeUnwrap();
        wires.push(signPrepared(prepared, [payer]));
      }
      const started = performance.now();
      for (const wire of wires) (await chain.send(wire))._unsafeUnwrap();
      const perSend = (performance.now() - started) / wires.length;
      chain.close();
      return perSend;
    };
    const memory = await measure();
    const disk = await measure(freshDir());
    console.log(
      `localnet send: ${(memory * 1000).toFixed(0)} µs in memory, ${(disk * 1000).toFixed(0)} µs with the journal ` +
        `(+${((disk - memory) * 1000).toFixed(0)} µs for the fsynced append)`,
    );
    expect(disk).toBeLessThan(20);
  }, 60_000);
});

describe('malformed wire bytes', () => {
  it('never reach the native decoder (which would abort the process)', async () => {
    const chain = await openLocalnetChain({ slotIntervalMs: 0 });
    const payer = newKey();
    chain.fund(payer.address, 100n * SOL);
    const prepared = (
      await chain.prepare(
        {
          kind: 'mint_nft',
          authority: payer.address,
          owner: payer.address,
          name: 'n',
          symbol: 's',
          uri: 'u',
        },
        { feePayer: payer.address, computeUnitPrice: 5n },
      )
    )._unsafeUnwrap();
    const wire = signPrepared(prepared, [payer]);
    parseTransaction(wire);
    let state = 7;
    const next = () => {
      state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
      return state;
    };
    for (let i = 0; i < 3_000; i++) {
      const copy = wire.slice();
      let mutated: Uint8Array = copy;
      switch (next() % 4) {
        case 0:
          for (let k = 0; k < 3; k++) copy[next() % copy.length] = next() & 0xff;
          break;
        case 1:
          mutated = copy.subarray(0, next() % copy.length);
          break;
        case 2:
          copy[130 + (next() % (copy.length - 130))] = next() & 0xff;
          break;
        default:
          mutated = new Uint8Array([...copy, ...new Uint8Array(1 + (next() % 8))]);
      }
      await chain.sendWire(mutated, { preflight: i % 2 === 0 });
      chain.simulateWire(mutated, { sigVerify: i % 3 === 0 });
    }
    expect((await chain.send(wire)).isOk()).toBe(true);
    chain.close();
  }, 60_000);
});
