import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import {
  ComputeBudgetProgram,
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { encodeBase58 } from '@token-actions/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalnet, type Localnet, type LocalnetRpc, startLocalnetRpc } from '../src/index.js';

let chain: Localnet;
let rpc: LocalnetRpc;
let connection: Connection;
let payer: Keypair;

async function raw(body: unknown): Promise<{ status: number; json: any; text: string; headers: Headers }> {
  const response = await fetch(rpc.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    json: text ? JSON.parse(text) : undefined,
    text,
    headers: response.headers,
  };
}

const call = async (method: string, params: unknown[] = []) =>
  (await raw({ jsonrpc: '2.0', id: 1, method, params })).json;

async function transferTx(from: Keypair, to: PublicKey, lamports: number, price = 0): Promise<Transaction> {
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  const tx = new Transaction({ feePayer: from.publicKey, blockhash, lastValidBlockHeight });
  if (price > 0) tx.add(ComputeBudgetProgram.setComputeUnitPrice({ microLamports: price }));
  tx.add(SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports }));
  tx.sign(from);
  return tx;
}

beforeAll(async () => {
  chain = await createLocalnet({ slotIntervalMs: 0, finalityDepthSlots: 4 });
  rpc = await startLocalnetRpc(chain, { port: 0 });
  connection = new Connection(rpc.url, 'confirmed');
  payer = Keypair.generate();
  const airdrop = await connection.requestAirdrop(payer.publicKey, 100 * LAMPORTS_PER_SOL);
  expect(airdrop).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
});

afterAll(async () => {
  await rpc.close();
  chain.close();
});

describe('localnet JSON-RPC through @solana/web3.js Connection', () => {
  it('answers cluster queries: version, health, genesis hash, epoch, slot, block height', async () => {
    expect((await connection.getVersion())['solana-core']).toMatch(/^\d+\.\d+\.\d+/);
    expect(await call('getHealth')).toMatchObject({ result: 'ok' });
    expect(await (await fetch(`${rpc.url}/health`)).text()).toBe('ok');
    expect(await connection.getGenesisHash()).toBe(chain.genesisHash);
    chain.tick(2);
    const slot = await connection.getSlot();
    expect(BigInt(slot)).toBe(chain.slot());
    expect(await connection.getBlockHeight()).toBe(slot);
    const epoch = await connection.getEpochInfo();
    expect(epoch.absoluteSlot).toBe(slot);
    expect(epoch.slotIndex).toBeLessThan(epoch.slotsInEpoch);
  });

  it('issues blockhashes with a validity window and tells valid from expired', async () => {
    const latest = await connection.getLatestBlockhash();
    expect(latest.lastValidBlockHeight).toBe(Number(chain.slot()) + 150);
    expect((await call('isBlockhashValid', [latest.blockhash])).result.value).toBe(true);
    expect((await call('isBlockhashValid', [encodeBase58(new Uint8Array(32).fill(9))])).result.value).toBe(
      false,
    );
  });

  it('sends (base64 and base58), reports statuses and the full transaction', async () => {
    const recipient = Keypair.generate().publicKey;
    const tx = await transferTx(payer, recipient, LAMPORTS_PER_SOL, 10_000);
    const id = await connection.sendRawTransaction(tx.serialize());
    expect(id).toBe(encodeBase58(tx.signature!));
    expect(await connection.getBalance(recipient)).toBe(LAMPORTS_PER_SOL);
    const balanceContext = await connection.getBalanceAndContext(recipient);
    expect(balanceContext.context.slot).toBe(Number(chain.slot()));

    const other = Keypair.generate().publicKey;
    const tx58 = await transferTx(payer, other, 2 * LAMPORTS_PER_SOL);
    const sent58 = await call('sendTransaction', [encodeBase58(tx58.serialize()), { encoding: 'base58' }]);
    expect(sent58.result).toBe(encodeBase58(tx58.signature!));
    expect(await connection.getBalance(other)).toBe(2 * LAMPORTS_PER_SOL);
    // Sending the same bytes again returns the same id and executes nothing.
    expect(await connection.sendRawTransaction(tx58.serialize(), { skipPreflight: true })).toBe(
      sent58.result,
    );
    expect(await connection.getBalance(other)).toBe(2 * LAMPORTS_PER_SOL);

    const [status] = (await connection.getSignatureStatuses([id])).value;
    expect(status).toMatchObject({ confirmationStatus: 'processed', confirmations: 0, err: null });
    expect(await connection.getTransaction(id, { maxSupportedTransactionVersion: 0 })).toBeNull();
    chain.tick(1);
    const confirmed = await connection.getTransaction(id, { maxSupportedTransactionVersion: 0 });
    expect(confirmed?.meta?.err).toBeNull();
    expect(confirmed?.meta?.fee).toBe(5_000 + Math.ceil((10_000 * 200_000) / 1_000_000));
    expect(
      confirmed?.meta?.logMessages?.some((line) => line.includes('11111111111111111111111111111111 success')),
    ).toBe(true);
    const keys = confirmed!.transaction.message.staticAccountKeys.map((key) => key.toBase58());
    const recipientIndex = keys.indexOf(recipient.toBase58());
    expect(
      confirmed!.meta!.postBalances[recipientIndex]! - confirmed!.meta!.preBalances[recipientIndex]!,
    ).toBe(LAMPORTS_PER_SOL);
    expect(confirmed?.version).toBe('legacy');
    expect(confirmed?.blockTime).toBeGreaterThan(1_600_000_000);
    chain.tick(4);
    expect((await connection.getSignatureStatuses([id])).value[0]).toMatchObject({
      confirmationStatus: 'finalized',
      confirmations: null,
    });
    expect(
      await connection.getTransaction(id, { commitment: 'finalized', maxSupportedTransactionVersion: 0 }),
    ).not.toBeNull();
    const legacy = await call('getTransaction', [id, 'json']);
    expect(legacy.result.transaction.signatures[0]).toBe(id);
    expect((await call('getTransaction', [id, { encoding: 'base64' }])).result.transaction[1]).toBe('base64');
    expect((await call('getTransaction', [id, { commitment: 'processed' }])).error.code).toBe(-32602);
    expect((await call('getTransaction', [encodeBase58(new Uint8Array(64).fill(3))])).result).toBeNull();
  });

  it('sends v0 transactions and asks for maxSupportedTransactionVersion', async () => {
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [
        SystemProgram.transfer({
          fromPubkey: payer.publicKey,
          toPubkey: Keypair.generate().publicKey,
          lamports: 1_000_000,
        }),
      ],
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([payer]);
    const id = await connection.sendTransaction(tx);
    chain.tick(1);
    expect((await call('getTransaction', [id, { commitment: 'confirmed' }])).error.code).toBe(-32015);
    expect((await connection.getTransaction(id, { maxSupportedTransactionVersion: 0 }))?.version).toBe(0);
  });

  it('refuses in preflight with -32002 (err and logs), or lands a failure with skipPreflight', async () => {
    const poor = Keypair.generate();
    await connection.requestAirdrop(poor.publicKey, LAMPORTS_PER_SOL);
    const tooMuch = await transferTx(poor, Keypair.generate().publicKey, 5 * LAMPORTS_PER_SOL);
    const preflight = await raw({
      jsonrpc: '2.0',
      id: 'a',
      method: 'sendTransaction',
      params: [tooMuch.serialize().toString('base64'), { encoding: 'base64' }],
    });
    expect(preflight.json.id).toBe('a');
    expect(preflight.json.error.code).toBe(-32002);
    expect(preflight.json.error.message).toBe(
      'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1',
    );
    expect(preflight.json.error.data.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(preflight.json.error.data.logs.join('\n')).toMatch(/insufficient lamports/);
    await expect(connection.sendRawTransaction(tooMuch.serialize())).rejects.toBeInstanceOf(
      SendTransactionError,
    );
    expect((await connection.getSignatureStatuses([encodeBase58(tooMuch.signature!)])).value[0]).toBeNull();

    const id = await connection.sendRawTransaction(tooMuch.serialize(), { skipPreflight: true });
    const [status] = (await connection.getSignatureStatuses([id])).value;
    expect(status?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    chain.tick(1);
    const landed = await connection.getTransaction(id, { maxSupportedTransactionVersion: 0 });
    expect(landed?.meta?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(landed?.meta?.fee).toBe(5_000);
    expect(await connection.getBalance(poor.publicKey)).toBe(LAMPORTS_PER_SOL - 5_000);
  });

  it('rejects bad signatures (-32003), unknown blockhashes (-32002) and malformed bytes (-32602)', async () => {
    const tx = await transferTx(payer, Keypair.generate().publicKey, 1_000);
    const wire = tx.serialize();
    wire[10] = (wire[10]! + 1) % 256;
    const forged = await call('sendTransaction', [
      wire.toString('base64'),
      { encoding: 'base64', skipPreflight: true },
    ]);
    expect(forged.error).toMatchObject({
      code: -32003,
      message: 'Transaction signature verification failure',
    });

    const stale = new Transaction({
      feePayer: payer.publicKey,
      recentBlockhash: encodeBase58(new Uint8Array(32).fill(5)),
    });
    stale.add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 1,
      }),
    );
    stale.sign(payer);
    const expired = await call('sendTransaction', [
      stale.serialize().toString('base64'),
      { encoding: 'base64', skipPreflight: true },
    ]);
    expect(expired.error).toMatchObject({
      code: -32002,
      message: 'Transaction simulation failed: Blockhash not found',
    });
    expect(expired.error.data.err).toBe('BlockhashNotFound');

    expect((await call('sendTransaction', ['AQID', { encoding: 'base64' }])).error.code).toBe(-32602);
    expect((await call('sendTransaction', ['!!!', { encoding: 'base64' }])).error.code).toBe(-32602);
    expect((await call('sendTransaction', ['abc', { encoding: 'hex' }])).error.code).toBe(-32602);
  });

  it('simulates: sigVerify off and on, replaceRecentBlockhash, account post-states', async () => {
    const recipient = Keypair.generate().publicKey;
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 7_000_000 }),
      ],
    }).compileToLegacyMessage();
    const unsigned = new VersionedTransaction(message);
    const simulated = await connection.simulateTransaction(unsigned, {
      sigVerify: false,
      accounts: { encoding: 'base64', addresses: [recipient.toBase58()] },
    });
    expect(simulated.value.err).toBeNull();
    expect(simulated.value.unitsConsumed).toBeGreaterThan(0);
    expect(simulated.value.accounts?.[0]?.lamports).toBe(7_000_000);
    expect(await connection.getBalance(recipient)).toBe(0);

    const checked = await call('simulateTransaction', [
      Buffer.from(unsigned.serialize()).toString('base64'),
      { encoding: 'base64', sigVerify: true },
    ]);
    expect(checked.error.code).toBe(-32003);

    const staleMessage = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: encodeBase58(new Uint8Array(32).fill(6)),
      instructions: [
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 9_000_000 }),
      ],
    }).compileToLegacyMessage();
    const stale = new VersionedTransaction(staleMessage);
    const notFound = await connection.simulateTransaction(stale, { sigVerify: false });
    expect(notFound.value.err).toBe('BlockhashNotFound');
    const replaced = await call('simulateTransaction', [
      Buffer.from(stale.serialize()).toString('base64'),
      { encoding: 'base64', replaceRecentBlockhash: true },
    ]);
    expect(replaced.result.value.err).toBeNull();
    expect(replaced.result.value.replacementBlockhash.blockhash).toBe(
      (await connection.getLatestBlockhash()).blockhash,
    );
    const both = await call('simulateTransaction', [
      Buffer.from(stale.serialize()).toString('base64'),
      { encoding: 'base64', replaceRecentBlockhash: true, sigVerify: true },
    ]);
    expect(both.error.code).toBe(-32602);

    const signed = await transferTx(payer, recipient, 1_000_000);
    const base58 = await call('simulateTransaction', [encodeBase58(signed.serialize()), { sigVerify: true }]);
    expect(base58.result.value.err).toBeNull();
  });

  it('reads accounts, token balances, rent and prioritization fees', async () => {
    const owner = Keypair.generate().publicKey;
    const stable = chain.currencies.stable;
    const minted = await call('localnet_mintTo', [owner.toBase58(), stable.mint, '2500000']);
    expect(minted.result).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    const ata = getAssociatedTokenAddressSync(new PublicKey(stable.mint!), owner, true, TOKEN_PROGRAM_ID);
    const balance = await connection.getTokenAccountBalance(ata);
    expect(balance.value).toMatchObject({
      amount: '2500000',
      decimals: 6,
      uiAmount: 2.5,
      uiAmountString: '2.5',
    });
    expect((await call('getTokenAccountBalance', [owner.toBase58()])).error.code).toBe(-32602);
    const largest = await connection.getTokenLargestAccounts(new PublicKey(stable.mint!));
    expect(largest.value.map((entry) => entry.address.toBase58())).toContain(ata.toBase58());

    const mintInfo = await connection.getAccountInfo(new PublicKey(stable.mint!));
    expect(mintInfo?.owner.equals(TOKEN_PROGRAM_ID)).toBe(true);
    expect(mintInfo?.data.length).toBe(82);
    expect(mintInfo?.data[44]).toBe(6);
    expect(await connection.getAccountInfo(Keypair.generate().publicKey)).toBeNull();
    const [first, missing] = await connection.getMultipleAccountsInfo([ata, Keypair.generate().publicKey]);
    expect(first?.data.length).toBe(165);
    expect(missing).toBeNull();
    const sliced = await call('getAccountInfo', [
      ata.toBase58(),
      { encoding: 'base64', dataSlice: { offset: 64, length: 8 } },
    ]);
    expect(Buffer.from(sliced.result.value.data[0], 'base64').readBigUInt64LE()).toBe(2_500_000n);

    expect(await connection.getMinimumBalanceForRentExemption(165)).toBe(2_039_280);
    expect(await connection.getMinimumBalanceForRentExemption(0)).toBe(890_880);

    chain.tick(1);
    const writer = Keypair.generate();
    await connection.requestAirdrop(writer.publicKey, LAMPORTS_PER_SOL);
    chain.tick(1);
    const tx = await transferTx(writer, Keypair.generate().publicKey, 1_000_000, 4_321);
    const id = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    const landedAt = (await connection.getSignatureStatuses([id])).value[0]!.slot;
    const fees = await connection.getRecentPrioritizationFees({ lockedWritableAccounts: [writer.publicKey] });
    expect(fees.find((entry) => entry.slot === landedAt)?.prioritizationFee).toBe(4_321);
    expect(fees.length).toBeLessThanOrEqual(150);
    const feeForMessage = await connection.getFeeForMessage(tx.compileMessage());
    // No compute-unit limit set: the runtime's default of 200,000 units per instruction is paid for.
    expect(feeForMessage.value).toBe(5_000 + Math.ceil((4_321 * 200_000) / 1_000_000));
  });

  it('searches history only when asked, and caps status requests at 256', async () => {
    const tx = await transferTx(payer, Keypair.generate().publicKey, 1_000_000);
    const id = await connection.sendRawTransaction(tx.serialize());
    chain.tick(400);
    expect((await connection.getSignatureStatuses([id])).value[0]).toBeNull();
    expect(
      (await connection.getSignatureStatuses([id], { searchTransactionHistory: true })).value[0],
    ).toMatchObject({
      confirmationStatus: 'finalized',
    });
    const tooMany = await call('getSignatureStatuses', [Array.from({ length: 257 }, () => id)]);
    expect(tooMany.error).toMatchObject({ code: -32602, message: 'Too many inputs provided; max 256' });
  });

  it('airdrops SOL and mints the localnet tokens; names its mints', async () => {
    const mints = (await call('localnet_getMints')).result;
    expect(mints.mintAuthority).toBe(chain.mintAuthority);
    expect(mints.currencies.map((c: { code: string }) => c.code)).toEqual(['SOL', 'USDC', 'PROJ']);
    const owner = Keypair.generate().publicKey;
    await connection.requestAirdrop(owner, 3 * LAMPORTS_PER_SOL);
    expect(await connection.getBalance(owner)).toBe(3 * LAMPORTS_PER_SOL);
    expect((await call('requestAirdrop', [owner.toBase58(), 0])).error.code).toBe(-32602);
    expect((await call('localnet_mintTo', [owner.toBase58(), owner.toBase58(), '1'])).error.code).toBe(
      -32602,
    );
  });

  it('speaks JSON-RPC 2.0: batches in order, notifications, errors, CORS', async () => {
    const batch = await raw([
      { jsonrpc: '2.0', id: 1, method: 'getSlot' },
      { jsonrpc: '2.0', id: 2, method: 'nope' },
      { jsonrpc: '2.0', method: 'getSlot' },
      { jsonrpc: '2.0', id: 3, method: 'getBalance', params: ['not-a-key'] },
      { id: 4, method: 'getSlot' },
    ]);
    expect(batch.json.map((entry: { id: number }) => entry.id)).toEqual([1, 2, 3, 4]);
    expect(batch.json[0].result).toBe(Number(chain.slot()));
    expect(batch.json[1].error.code).toBe(-32601);
    expect(batch.json[2].error.code).toBe(-32602);
    expect(batch.json[3].error.code).toBe(-32600);
    expect((await raw('{not json')).json.error.code).toBe(-32700);
    expect((await raw([])).json.error.code).toBe(-32600);
    expect((await raw({ jsonrpc: '2.0', method: 'getSlot' })).status).toBe(204);
    expect((await call('getBalance', [payer.publicKey.toBase58(), 'x'])).error.code).toBe(-32602);
    const preflight = await fetch(rpc.url, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect((await fetch(rpc.url, { method: 'PUT' })).status).toBe(405);
    const tooLarge = await fetch(rpc.url, { method: 'POST', body: 'x'.repeat(2 * 1024 * 1024) });
    expect(tooLarge.status).toBe(413);
  });

  it('moves tokens in wallet-built transactions and lists holders largest first', async () => {
    const owner = Keypair.generate();
    const ata = getAssociatedTokenAddressSync(new PublicKey(chain.currencies.project.mint!), payer.publicKey);
    await call('localnet_mintTo', [payer.publicKey.toBase58(), chain.currencies.project.mint, '10']);
    const { blockhash } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash });
    const mint = new PublicKey(chain.currencies.project.mint!);
    const destination = getAssociatedTokenAddressSync(mint, owner.publicKey);
    tx.add(
      createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, destination, owner.publicKey, mint),
      createTransferCheckedInstruction(ata, mint, destination, payer.publicKey, 4n, 9),
    );
    tx.sign(payer);
    await connection.sendRawTransaction(tx.serialize());
    expect((await connection.getTokenAccountBalance(ata)).value.amount).toBe('6');
    const largest = await connection.getTokenLargestAccounts(new PublicKey(chain.currencies.project.mint!));
    expect(largest.value[0]?.amount).toBe('6');
  });
});
