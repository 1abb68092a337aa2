import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
} from '@solana/web3.js';
import { afterAll, describe, expect, it } from 'vitest';
import { mintsOf, type Served, serve } from './support/serve.js';

/**
 * The address index, the token balances and the inner instructions are part of the chain's
 * history: a restart (clean, after a compaction, or after kill -9) answers exactly as before.
 */

const MEMO_PROGRAM = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const SEED = new Uint8Array(32).fill(7);
const directories: string[] = [];
afterAll(() => {
  for (const dir of directories) rmSync(dir, { recursive: true, force: true });
});
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'localnet-history-'));
  directories.push(dir);
  return dir;
};

interface Activity {
  readonly wallet: Keypair;
  readonly tokenTransfer: string;
}

/** A wallet funded with SOL and USDC, paying twice with a memo and once in USDC. */
async function activity(connection: Connection, call: Served['call'], mints: Record<string, string>) {
  const wallet = Keypair.generate();
  await call('requestAirdrop', [wallet.publicKey.toBase58(), LAMPORTS_PER_SOL]);
  await call('localnet_mintTo', [wallet.publicKey.toBase58(), mints.USDC, '5000000']);
  const send = async (...instructions: TransactionInstruction[]) => {
    const latest = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: wallet.publicKey, ...latest }).add(...instructions);
    tx.sign(wallet);
    return connection.sendRawTransaction(tx.serialize());
  };
  for (const note of ['first', 'second']) {
    await send(
      SystemProgram.transfer({
        fromPubkey: wallet.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 1_000_000,
      }),
      new TransactionInstruction({ programId: MEMO_PROGRAM, keys: [], data: Buffer.from(note) }),
    );
  }
  const mint = new PublicKey(mints.USDC!);
  const recipient = Keypair.generate().publicKey;
  const from = getAssociatedTokenAddressSync(mint, wallet.publicKey);
  const to = getAssociatedTokenAddressSync(mint, recipient);
  const tokenTransfer = await send(
    createAssociatedTokenAccountIdempotentInstruction(wallet.publicKey, to, recipient, mint),
    createTransferCheckedInstruction(from, mint, to, wallet.publicKey, 1_500_000n, 6),
  );
  return { wallet, tokenTransfer };
}

/** What must read the same after a restart (statuses move on, so they are left out). */
async function snapshot(call: Served['call'], done: Activity) {
  const signatures = (
    await call('getSignaturesForAddress', [done.wallet.publicKey.toBase58(), { commitment: 'confirmed' }])
  ).result as { signature: string; slot: number; memo: string | null; blockTime: number; err: unknown }[];
  const transaction = (
    await call('getTransaction', [done.tokenTransfer, { commitment: 'confirmed', encoding: 'jsonParsed' }])
  ).result;
  const slot = signatures[0]!.slot;
  const block = (
    await call('getBlock', [
      slot,
      { commitment: 'confirmed', transactionDetails: 'signatures', rewards: false },
    ])
  ).result;
  return {
    signatures: signatures.map(({ signature, slot, memo, blockTime, err }) => ({
      signature,
      slot,
      memo,
      blockTime,
      err,
    })),
    transaction,
    block: { signatures: block.signatures, blockTime: block.blockTime, parentSlot: block.parentSlot },
  };
}

describe('history across restarts', () => {
  it('answers the same after a clean restart and after a compaction', async () => {
    const dataDir = freshDir();
    let served = await serve({ dataDir, seed: SEED, slotIntervalMs: 0, finalityDepthSlots: 4 });
    const connection = new Connection(served.rpc.url, 'confirmed');
    const done = await activity(connection, served.call, await mintsOf(served));
    served.localnet.tick(2);
    const before = await snapshot(served.call, done);
    expect(before.signatures).toHaveLength(5);
    expect(before.signatures[0]!.signature).toBe(done.tokenTransfer);
    expect(before.signatures.slice(1, 3).map((s) => s.memo)).toEqual(['[6] second', '[5] first']);
    expect(before.transaction.meta.preTokenBalances).toHaveLength(1);
    expect(before.transaction.meta.postTokenBalances).toHaveLength(2);
    expect(before.transaction.meta.innerInstructions.length).toBeGreaterThan(0);
    expect(before.block.signatures).toContain(done.tokenTransfer);
    await served.close();

    served = await serve({ dataDir, seed: SEED, slotIntervalMs: 0, finalityDepthSlots: 4 });
    expect(await snapshot(served.call, done)).toEqual(before);
    await served.close();

    // A journal past this size is compacted into a snapshot at the next start.
    served = await serve({
      dataDir,
      seed: SEED,
      slotIntervalMs: 0,
      finalityDepthSlots: 4,
      compactJournalBytes: 1,
    });
    expect(await snapshot(served.call, done)).toEqual(before);
    await served.close();
  });

  it('answers the same after kill -9 of the `pnpm localnet` process', async () => {
    const dataDir = freshDir();
    const first = await startProcess(dataDir);
    const call = rpcCaller(first.rpcUrl);
    const connection = new Connection(first.rpcUrl, 'confirmed');
    const done = await activity(connection, call, { USDC: first.usdcMint });
    // Polled over HTTP: a websocket left open would only try to reconnect to the killed process.
    for (;;) {
      const { result } = await call('getSignatureStatuses', [[done.tokenTransfer]]);
      const status = result.value[0]?.confirmationStatus;
      if (status === 'confirmed' || status === 'finalized') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const before = await snapshot(call, done);
    expect(before.signatures).toHaveLength(5);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;

    const second = await startProcess(dataDir);
    try {
      expect(await snapshot(rpcCaller(second.rpcUrl), done)).toEqual(before);
    } finally {
      const exit = new Promise((resolve) => second.child.once('exit', resolve));
      second.child.kill('SIGTERM');
      await exit;
    }
  });
});

const here = dirname(fileURLToPath(import.meta.url));

async function startProcess(
  dataDir: string,
): Promise<{ child: ChildProcess; rpcUrl: string; usdcMint: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, '..', 'src', 'main.ts')], {
    cwd: join(here, '..'),
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      LOCALNET_RPC_PORT: '0',
      LOCALNET_SEED: Buffer.from(SEED).toString('hex'),
      SLOT_INTERVAL_MS: '50',
      FINALITY_DEPTH_SLOTS: '4',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('LOCALNET_READY '))
      return { child, ...JSON.parse(line.slice('LOCALNET_READY '.length)) };
  }
  throw new Error('the localnet exited before it was ready');
}

function rpcCaller(url: string): Served['call'] {
  return async (method, params = []) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return (await response.json()) as Awaited<ReturnType<Served['call']>>;
  };
}
