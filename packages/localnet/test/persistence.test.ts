import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalnet, type LocalnetConfig } from '../src/index.js';
import { signedTransfer } from './support/transfer.js';

const SOL = 1_000_000_000n;
const CHILD_SEED = new Uint8Array(32).fill(42);
const directories: string[] = [];

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'localnet-state-'));
  directories.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of directories) rmSync(dir, { recursive: true, force: true });
});

const open = (dataDir: string, extra: LocalnetConfig = {}) =>
  createLocalnet({ dataDir, seed: CHILD_SEED, slotIntervalMs: 0, finalityDepthSlots: 4, ...extra });

describe('localnet persistence', () => {
  it('cuts off a torn last line, and refuses a journal corrupted before its end', async () => {
    const dataDir = freshDir();
    let chain = await open(dataDir);
    const owner = { address: Keypair.generate().publicKey.toBase58() };
    chain.fund(owner.address, SOL);
    chain.close();
    const dir = join(dataDir, 'localnet');
    const journal = join(dir, readdirSync(dir).find((name) => name.startsWith('journal-'))!);
    const intact = readFileSync(journal);
    appendFileSync(journal, '1234abcd {"t":"tx","w":"AQ'); // a crash mid-write
    chain = await open(dataDir);
    expect(chain.lamports(owner.address)).toBe(SOL);
    chain.close();
    expect(readFileSync(journal).subarray(0, intact.length).equals(intact)).toBe(true);

    const lines = readFileSync(journal, 'utf8').split('\n');
    lines[2] = `00000000 ${lines[2]!.slice(9)}`;
    writeFileSync(journal, lines.join('\n'));
    await expect(open(dataDir)).rejects.toThrow(/corrupt/);
  });

  it('refuses a directory held by a live chain, or made by another seed', async () => {
    const dataDir = freshDir();
    const chain = await open(dataDir);
    await expect(open(dataDir)).rejects.toThrow(/already open in this process/);
    chain.close();
    await expect(
      createLocalnet({ dataDir, seed: new Uint8Array(32).fill(1), slotIntervalMs: 0 }),
    ).rejects.toThrow(/another seed/);
    expect(existsSync(join(dataDir, 'localnet', 'LOCK'))).toBe(false);
    (await open(dataDir)).close();

    // A lock naming this very pid but not held here was left by an earlier process with the same
    // pid (a container's pid 1 after kill -9): taken over. One naming a live process is respected.
    const lock = join(dataDir, 'localnet', 'LOCK');
    writeFileSync(lock, `${process.pid} 1\n`);
    (await open(dataDir)).close();
    writeFileSync(lock, `${process.ppid}\n`);
    await expect(open(dataDir)).rejects.toThrow(new RegExp(`in use by process ${process.ppid}`));
    rmSync(lock);

    // Without a seed the chain keeps the random one it made, so it can be reopened.
    const seedless = freshDir();
    const a = await createLocalnet({ dataDir: seedless, slotIntervalMs: 0 });
    const mints = a.currencies.all.map((currency) => currency.mint);
    a.close();
    const b = await createLocalnet({ dataDir: seedless, slotIntervalMs: 0 });
    expect(b.currencies.all.map((currency) => currency.mint)).toEqual(mints);
    expect(b.genesisHash).toBe(a.genesisHash);
    b.close();
  });

  it('reports a landed transaction only once its journal record is on disk', async () => {
    const chain = await open(freshDir());
    try {
      const payer = Keypair.generate();
      const address = payer.publicKey.toBase58();
      chain.fund(address, SOL);
      const { wire, id } = await signedTransfer(chain, payer, Keypair.generate().publicKey, 1_000);
      const heard: string[] = [];
      const stop = chain.listen({ onTransaction: (landed) => heard.push(landed.signature) });
      const history = () =>
        chain
          .signaturesForAddress(address, { limit: 10, commitment: 'processed' })
          .map((info) => info.signature);

      // Executed at once, acknowledged after the fsync. In between a crash would take it back, so
      // nothing reports it: a tracker that recorded it confirmed would outlive the transaction.
      const sending = chain.sendWire(wire);
      expect(chain.lamports(address)).toBeLessThan(SOL);
      expect(chain.statuses([id])).toEqual([null]);
      expect(chain.landed(id)).toBeNull();
      expect(chain.transaction(id)).toBeNull();
      expect(history()).not.toContain(id);
      expect(heard).toEqual([]);

      expect((await sending).isOk()).toBe(true);
      expect(chain.statuses([id])[0]?.commitment).toBe('processed');
      expect(chain.landed(id)?.commitment).toBe('processed');
      expect(chain.transaction(id)?.signature).toBe(id);
      expect(history()[0]).toBe(id);
      expect(heard).toEqual([id]);
      stop();
    } finally {
      chain.close();
    }
  });
});
