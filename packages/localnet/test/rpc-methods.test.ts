import { createServer } from 'node:net';
import {
  createApproveInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { Keypair, PublicKey, SystemProgram, Transaction, type TransactionInstruction } from '@solana/web3.js';
import { encodeBase58 } from '@token-actions/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalnetRpc } from '../src/index.js';
import { mintsOf, type Served, serve } from './support/serve.js';
import { openSocket } from './support/ws-client.js';

/**
 * The methods added for wallets and explorers, over raw JSON-RPC on a localnet whose clock is moved
 * by hand: their options, their errors, and their answers as agave shapes them.
 */

let served: Served;
let mints: Record<string, string>;
const wallet = Keypair.generate();
const delegate = Keypair.generate().publicKey;
let usdcAccount: PublicKey;
let transferSignature: string;
let transferSlot: number;

async function send(...instructions: TransactionInstruction[]): Promise<string> {
  const { blockhash } = await served.localnet.latestBlockhash();
  const tx = new Transaction({ feePayer: wallet.publicKey, recentBlockhash: blockhash }).add(...instructions);
  tx.sign(wallet);
  const sent = await served.localnet.sendWire(tx.serialize());
  if (sent.isErr()) throw new Error(sent.error.message);
  return sent.value;
}

beforeAll(async () => {
  served = await serve({ slotIntervalMs: 0, finalityDepthSlots: 4 });
  mints = await mintsOf(served);
  served.localnet.fund(wallet.publicKey.toBase58(), 1_000_000_000n);
  await served.call('localnet_mintTo', [wallet.publicKey.toBase58(), mints.USDC, '9000000']);
  served.localnet.tick();
  const usdc = new PublicKey(mints.USDC!);
  usdcAccount = getAssociatedTokenAddressSync(usdc, wallet.publicKey);
  await send(createApproveInstruction(usdcAccount, delegate, wallet.publicKey, 1_000_000n));
  served.localnet.tick();
  // Minting one unit to the localnet's own key gives it a USDC account to pay into.
  const authority = new PublicKey(served.localnet.mintAuthority);
  await served.call('localnet_mintTo', [authority.toBase58(), mints.USDC, '1']);
  const recipient = getAssociatedTokenAddressSync(usdc, authority, true);
  served.localnet.tick(); // the transfer has its slot to itself
  transferSignature = await send(
    createTransferCheckedInstruction(usdcAccount, usdc, recipient, wallet.publicKey, 2_000_000n, 6),
  );
  transferSlot = Number(served.localnet.slot());
  served.localnet.tick(5);
});

afterAll(async () => {
  await served.close();
});

describe('token methods', () => {
  it('getTokenAccountsByDelegate finds the approved account; getTokenSupply reads the mint', async () => {
    const { result } = await served.call('getTokenAccountsByDelegate', [
      delegate.toBase58(),
      { programId: TOKEN_PROGRAM_ID.toBase58() },
      { encoding: 'jsonParsed' },
    ]);
    expect(result.value).toHaveLength(1);
    expect(result.value[0].pubkey).toBe(usdcAccount.toBase58());
    expect(result.value[0].account.data.parsed.info).toMatchObject({
      delegate: delegate.toBase58(),
      delegatedAmount: { amount: '1000000', decimals: 6, uiAmountString: '1' },
    });
    const supply = await served.call('getTokenSupply', [mints.USDC]);
    expect(supply.result.value).toEqual({
      amount: '9000001',
      decimals: 6,
      uiAmount: 9.000001,
      uiAmountString: '9.000001',
    });
    expect((await served.call('getTokenSupply', [wallet.publicKey.toBase58()])).error?.code).toBe(-32602);
  });

  it('getTokenAccountsByOwner refuses an unknown mint or a program that is not a token program', async () => {
    const owner = wallet.publicKey.toBase58();
    const unknownMint = await served.call('getTokenAccountsByOwner', [
      owner,
      { mint: Keypair.generate().publicKey.toBase58() },
    ]);
    expect(unknownMint.error).toEqual({ code: -32602, message: 'Invalid param: could not find mint' });
    const notToken = await served.call('getTokenAccountsByOwner', [
      owner,
      { programId: SystemProgram.programId.toBase58() },
    ]);
    expect(notToken.error).toEqual({ code: -32602, message: 'Invalid param: unrecognized Token program id' });
    // The default encoding is agave's binary (base58), which a 165-byte account is too large for.
    const binary = await served.call('getTokenAccountsByOwner', [owner, { mint: mints.USDC }]);
    expect(binary.error?.message).toMatch(/base 58/);
    const sliced = await served.call('getTokenAccountsByOwner', [
      owner,
      { mint: mints.USDC },
      { encoding: 'base64', dataSlice: { offset: 0, length: 32 } },
    ]);
    expect(
      Buffer.from(sliced.result.value[0].account.data[0], 'base64').equals(
        new PublicKey(mints.USDC!).toBuffer(),
      ),
    ).toBe(true);
  });
});

describe('getProgramAccounts', () => {
  it('filters by memcmp and dataSize, slices, and wraps in a context when asked', async () => {
    const owner = wallet.publicKey.toBase58();
    const filters = [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: owner } }];
    const plain = await served.call('getProgramAccounts', [
      TOKEN_PROGRAM_ID.toBase58(),
      { encoding: 'base64', filters },
    ]);
    expect(plain.result.map((entry: { pubkey: string }) => entry.pubkey)).toEqual([usdcAccount.toBase58()]);
    const withContext = await served.call('getProgramAccounts', [
      TOKEN_PROGRAM_ID.toBase58(),
      { encoding: 'base64', filters, withContext: true, dataSlice: { offset: 64, length: 8 } },
    ]);
    expect(withContext.result.context.slot).toBe(Number(served.localnet.slot()));
    expect(Buffer.from(withContext.result.value[0].account.data[0], 'base64').readBigUInt64LE()).toBe(
      7_000_000n,
    );
    const base64Memcmp = await served.call('getProgramAccounts', [
      TOKEN_PROGRAM_ID.toBase58(),
      {
        encoding: 'base64',
        filters: [
          {
            memcmp: { offset: 32, bytes: wallet.publicKey.toBuffer().toString('base64'), encoding: 'base64' },
          },
        ],
      },
    ]);
    expect(base64Memcmp.result).toHaveLength(1);
    const tooMany = await served.call('getProgramAccounts', [
      TOKEN_PROGRAM_ID.toBase58(),
      { filters: [{ dataSize: 1 }, { dataSize: 2 }, { dataSize: 3 }, { dataSize: 4 }, { dataSize: 5 }] },
    ]);
    expect(tooMany.error).toEqual({ code: -32602, message: 'Too many filters provided; max 4' });
  });
});

describe('history methods', () => {
  it('getSignaturesForAddress checks its limit and commitment, and hides what has not reached it', async () => {
    const address = wallet.publicKey.toBase58();
    expect((await served.call('getSignaturesForAddress', [address, { limit: 1001 }])).error).toEqual({
      code: -32602,
      message: 'Invalid limit; max 1000',
    });
    expect(
      (await served.call('getSignaturesForAddress', [address, { commitment: 'processed' }])).error?.code,
    ).toBe(-32602);
    const sent = await send(
      SystemProgram.transfer({ fromPubkey: wallet.publicKey, toPubkey: delegate, lamports: 1_000_000 }),
    );
    const confirmed = async () =>
      (await served.call('getSignaturesForAddress', [address, { commitment: 'confirmed', limit: 1 }]))
        .result[0].signature;
    expect(await confirmed()).not.toBe(sent);
    served.localnet.tick();
    expect(await confirmed()).toBe(sent);
    // A `before` the node does not know finds nothing, as agave answers.
    const unknown = encodeBase58(crypto.getRandomValues(new Uint8Array(64)));
    expect((await served.call('getSignaturesForAddress', [address, { before: unknown }])).result).toEqual([]);
    const untilUnknown = await served.call('getSignaturesForAddress', [address, { until: unknown }]);
    expect(untilUnknown.result.length).toBeGreaterThan(2);
  });

  it('getBlock gives each level of detail, and the RPC errors for blocks it cannot give', async () => {
    const block = (config: Record<string, unknown>) =>
      served.call('getBlock', [transferSlot, { commitment: 'confirmed', ...config }]);
    const full = (await block({})).result;
    expect(full.parentSlot).toBe(transferSlot - 1);
    expect(full.blockHeight).toBe(transferSlot);
    expect(full.rewards).toEqual([]);
    expect(full.transactions[0].transaction.signatures[0]).toBe(transferSignature);
    expect(full.transactions[0].meta.postTokenBalances).toHaveLength(2);
    expect((await block({ transactionDetails: 'signatures', rewards: false })).result).toEqual({
      blockHeight: transferSlot,
      blockTime: full.blockTime,
      blockhash: full.blockhash,
      parentSlot: transferSlot - 1,
      previousBlockhash: full.previousBlockhash,
      signatures: [transferSignature],
    });
    const accounts = (await block({ transactionDetails: 'accounts' })).result.transactions[0];
    expect(accounts.transaction.accountKeys[0]).toEqual({
      pubkey: wallet.publicKey.toBase58(),
      writable: true,
      signer: true,
      source: 'transaction',
    });
    expect(accounts.meta.logMessages).toBeUndefined();
    expect('transactions' in (await block({ transactionDetails: 'none' })).result).toBe(false);
    const parsed = (await block({ encoding: 'jsonParsed' })).result.transactions[0].transaction.message
      .instructions[0];
    expect(parsed).toMatchObject({ program: 'spl-token', parsed: { type: 'transferChecked' } });
    const base64 = (await block({ encoding: 'base64' })).result.transactions[0].transaction;
    expect(base64[1]).toBe('base64');

    const future = await served.call('getBlock', [Number(served.localnet.slot()) + 10]);
    expect(future.error).toEqual({
      code: -32004,
      message: `Block not available for slot ${Number(served.localnet.slot()) + 10}`,
    });
    const before = await served.call('getBlock', [Number(served.localnet.firstSlot) - 1]);
    expect(before.error?.code).toBe(-32001);
    expect((await served.call('getBlock', [transferSlot, { commitment: 'processed' }])).error?.code).toBe(
      -32602,
    );
    expect((await served.call('getBlockTime', [transferSlot])).result).toBe(full.blockTime);
    expect((await served.call('getBlocksWithLimit', [transferSlot, 3])).result).toEqual([
      transferSlot,
      transferSlot + 1,
      transferSlot + 2,
    ]);
  });
});

describe('cluster methods', () => {
  it('answers identity, epoch schedule and supply as a one-node cluster', async () => {
    const { identity } = (await served.call('getIdentity')).result;
    expect(identity).toBe(served.localnet.identity);
    expect(identity).not.toBe(served.localnet.mintAuthority);
    expect((await served.call('getEpochSchedule')).result).toEqual({
      slotsPerEpoch: 432_000,
      leaderScheduleSlotOffset: 432_000,
      warmup: true,
      firstNormalEpoch: 14,
      firstNormalSlot: 524_256,
    });
    const supply = (await served.call('getSupply')).result.value;
    expect(supply.total).toBeGreaterThan(0);
    expect(supply.circulating).toBe(supply.total);
    expect(supply.nonCirculatingAccounts).toEqual([]);
    expect((await served.call('getHighestSnapshotSlot')).error).toEqual({
      code: -32008,
      message: 'No snapshot',
    });
  });
});

describe('accountSubscribe on the localnet', () => {
  it('notifies a token account jsonParsed, with its new amount', async () => {
    const socket = await openSocket(served.rpc.wsUrl);
    const reply = await socket.request('accountSubscribe', [
      usdcAccount.toBase58(),
      { encoding: 'jsonParsed', commitment: 'confirmed' },
    ]);
    const usdc = new PublicKey(mints.USDC!);
    await send(
      createTransferCheckedInstruction(
        usdcAccount,
        usdc,
        getAssociatedTokenAddressSync(usdc, new PublicKey(served.localnet.mintAuthority), true),
        wallet.publicKey,
        500_000n,
        6,
      ),
    );
    expect(socket.notifications).toEqual([]);
    served.localnet.tick();
    await socket.waitFor(() => socket.notifications.length === 1);
    const { params } = socket.notifications[0] as {
      params: {
        subscription: number;
        result: { value: { data: { parsed: { info: { tokenAmount: unknown } } } } };
      };
    };
    expect(params.subscription).toBe(reply.result);
    expect(params.result.value.data.parsed.info.tokenAmount).toEqual({
      amount: '6500000',
      decimals: 6,
      uiAmount: 6.5,
      uiAmountString: '6.5',
    });
    await socket.close();
  });
});

describe('websocket ports', () => {
  it('serves the websocket on the RPC port alone with wsPort false, and refuses a taken websocket port', async () => {
    const alone = await startLocalnetRpc(served.localnet, { port: 0, wsPort: false });
    expect(alone.wsUrl).toBe(`ws://127.0.0.1:${alone.port}`);
    const socket = await openSocket(alone.wsUrl);
    expect((await socket.request('slotSubscribe')).result).toBeTypeOf('number');
    await socket.close();
    await alone.close();

    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    await expect(startLocalnetRpc(served.localnet, { port: 0, wsPort: taken })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
    await new Promise((resolve) => blocker.close(resolve));
  });
});
