import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Connection, Keypair, LAMPORTS_PER_SOL } from '@solana/web3.js';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..');
const entry = join(packageDir, 'src', 'main.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'localnet-main-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Ready {
  rpcUrl: string;
  usdcMint: string;
  projectMint: string;
  projectTicker: string;
}

async function start(): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: packageDir,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      LOCALNET_RPC_PORT: '0',
      PROJECT_TICKER: 'ACME',
      SLOT_INTERVAL_MS: '50',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('LOCALNET_READY '))
      return { child, ready: JSON.parse(line.slice('LOCALNET_READY '.length)) };
  }
  throw new Error('the localnet exited before it was ready');
}

const stopped = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', resolve));

describe('pnpm localnet (the localnet as a process of its own)', () => {
  it('serves JSON-RPC, stops on SIGTERM, and resumes its chain on the same DATA_DIR', async () => {
    const owner = Keypair.generate().publicKey;
    const first = await start();
    expect(first.ready.projectTicker).toBe('ACME');
    const connection = new Connection(first.ready.rpcUrl, 'confirmed');
    await connection.requestAirdrop(owner, 2 * LAMPORTS_PER_SOL);
    const slotBefore = await connection.getSlot();
    const exit = stopped(first.child);
    first.child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(existsSync(join(dataDir, 'localnet', 'LOCK'))).toBe(false);

    const second = await start();
    try {
      expect(second.ready.usdcMint).toBe(first.ready.usdcMint);
      expect(second.ready.projectMint).toBe(first.ready.projectMint);
      const again = new Connection(second.ready.rpcUrl, 'confirmed');
      expect(await again.getBalance(owner)).toBe(2 * LAMPORTS_PER_SOL);
      expect(await again.getSlot()).toBeGreaterThan(slotBefore);
    } finally {
      const done = stopped(second.child);
      second.child.kill('SIGTERM');
      await done;
    }
  }, 60_000);
});
