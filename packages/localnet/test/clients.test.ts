import {
  appendTransactionMessageInstruction,
  assertIsSendableTransaction,
  assertIsTransactionWithBlockhashLifetime,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getSignatureFromTransaction,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import {
  AccountLayout,
  createMint,
  getAccount,
  getOrCreateAssociatedTokenAccount,
  mintTo,
  TOKEN_PROGRAM_ID,
  transfer,
} from '@solana/spl-token';
import {
  type AccountInfo,
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  type ParsedAccountData,
  PublicKey,
  SystemProgram,
  sendAndConfirmTransaction,
  type TokenBalance,
  Transaction,
  TransactionInstruction,
} from '@solana/web3.js';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintsOf, type Served, serve } from './support/serve.js';

/**
 * Real client flows against a running localnet, each as a Solana tutorial writes it: no websocket
 * endpoint is configured (web3.js finds it at the RPC port + 1, as with solana-test-validator), no
 * polling is added, confirmations are the libraries' own.
 */

const MEMO_PROGRAM = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

let served: Served;
let connection: Connection;
let payer: Keypair;

beforeAll(async () => {
  served = await serve({ slotIntervalMs: 50, finalityDepthSlots: 8 });
  connection = new Connection(served.rpc.url, 'confirmed');
  payer = Keypair.generate();
  const airdrop = await connection.requestAirdrop(payer.publicKey, 100 * LAMPORTS_PER_SOL);
  const latest = await connection.getLatestBlockhash();
  await connection.confirmTransaction({ signature: airdrop, ...latest });
});

afterAll(async () => {
  await served.close();
});

describe('@solana/web3.js', () => {
  it('serves the websocket at the RPC port + 1, where web3.js looks for it', () => {
    expect(served.rpc.wsUrl).toBe(`ws://127.0.0.1:${served.rpc.port + 1}`);
    expect(served.localnet.wsUrl).toBe(served.rpc.wsUrl);
  });

  it('sendAndConfirmTransaction lands and confirms a transfer', async () => {
    const to = Keypair.generate().publicKey;
    const tx = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: LAMPORTS_PER_SOL }),
    );
    const signature = await sendAndConfirmTransaction(connection, tx, [payer]);
    expect(await connection.getBalance(to)).toBe(LAMPORTS_PER_SOL);
    const status = await connection.getSignatureStatus(signature);
    expect(['confirmed', 'finalized']).toContain(status.value?.confirmationStatus);
  });

  it('confirmTransaction (blockhash strategy) waits for finalized through signatureSubscribe', async () => {
    const to = Keypair.generate().publicKey;
    const latest = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, ...latest }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 5_000_000 }),
    );
    tx.sign(payer);
    const signature = await connection.sendRawTransaction(tx.serialize());
    const result = await connection.confirmTransaction({ signature, ...latest }, 'finalized');
    expect(result.value.err).toBeNull();
    expect((await connection.getSignatureStatus(signature)).value?.confirmationStatus).toBe('finalized');
  });

  it('onAccountChange (accountSubscribe) sees a balance change', async () => {
    const watched = Keypair.generate().publicKey;
    const seen = new Promise<AccountInfo<Buffer>>((resolve) => {
      const id = connection.onAccountChange(
        watched,
        (info) => {
          void connection.removeAccountChangeListener(id);
          resolve(info);
        },
        { commitment: 'confirmed' },
      );
    });
    // Let the subscription reach the server before the change.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await sendAndConfirmTransaction(
      connection,
      new Transaction().add(
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: watched, lamports: 7_000_000 }),
      ),
      [payer],
    );
    const info = await seen;
    expect(info.lamports).toBe(7_000_000);
    expect(info.owner.equals(SystemProgram.programId)).toBe(true);
  });
});

describe('@solana/spl-token', () => {
  let mint: PublicKey;
  let transferSignature: string;
  const owner = Keypair.generate();
  const recipient = Keypair.generate().publicKey;

  it('createMint, getOrCreateAssociatedTokenAccount, mintTo and transfer, each confirmed by itself', async () => {
    mint = await createMint(connection, payer, payer.publicKey, null, 6);
    const from = await getOrCreateAssociatedTokenAccount(connection, payer, mint, owner.publicKey);
    const to = await getOrCreateAssociatedTokenAccount(connection, payer, mint, recipient);
    // Asked again, the account is found rather than created.
    const again = await getOrCreateAssociatedTokenAccount(connection, payer, mint, owner.publicKey);
    expect(again.address.equals(from.address)).toBe(true);
    await mintTo(connection, payer, mint, from.address, payer, 5_000_000n);
    transferSignature = await transfer(connection, payer, from.address, to.address, owner, 1_250_000n);
    expect((await getAccount(connection, from.address)).amount).toBe(3_750_000n);
    expect((await getAccount(connection, to.address)).amount).toBe(1_250_000n);
  });

  it('getParsedTransaction shows the token transfer parsed, with token balances before and after', async () => {
    const parsed = await connection.getParsedTransaction(transferSignature, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    expect(parsed?.meta?.err).toBeNull();
    const ix = parsed!.transaction.message.instructions.find((i) => i.programId.equals(TOKEN_PROGRAM_ID));
    expect(ix && 'parsed' in ix ? ix.parsed : undefined).toMatchObject({
      type: 'transfer',
      info: { amount: '1250000', authority: owner.publicKey.toBase58() },
    });
    const signer = parsed!.transaction.message.accountKeys.find((key) => key.pubkey.equals(payer.publicKey));
    expect(signer).toMatchObject({ signer: true, writable: true });
    const amounts = (list: TokenBalance[] | null | undefined) =>
      Object.fromEntries((list ?? []).map((b) => [b.owner, b.uiTokenAmount.uiAmountString]));
    expect(amounts(parsed!.meta!.preTokenBalances)).toEqual({
      [owner.publicKey.toBase58()]: '5',
      [recipient.toBase58()]: '0',
    });
    expect(amounts(parsed!.meta!.postTokenBalances)).toEqual({
      [owner.publicKey.toBase58()]: '3.75',
      [recipient.toBase58()]: '1.25',
    });
    for (const balance of parsed!.meta!.postTokenBalances ?? []) {
      expect(balance.mint).toBe(mint.toBase58());
      expect(balance.programId).toBe(TOKEN_PROGRAM_ID.toBase58());
    }
  });

  it('getTransaction shows the inner instructions of an associated-token-account creation', async () => {
    const [created] = await connection.getSignaturesForAddress(recipient, { limit: 1 });
    const tx = await connection.getParsedTransaction(created!.signature, {
      maxSupportedTransactionVersion: 0,
    });
    const inner = tx!.meta!.innerInstructions!.flatMap((group) => group.instructions);
    const types = inner.map((ix) => ('parsed' in ix ? (ix.parsed as { type: string }).type : ix.programId));
    expect(types).toEqual(
      expect.arrayContaining(['getAccountDataSize', 'createAccount', 'initializeImmutableOwner']),
    );
    const raw = await connection.getTransaction(created!.signature, { maxSupportedTransactionVersion: 0 });
    expect(raw!.meta!.innerInstructions!.length).toBeGreaterThan(0);
    expect(raw!.meta!.postTokenBalances).toEqual([
      expect.objectContaining({ owner: recipient.toBase58(), mint: mint.toBase58() }),
    ]);
  });

  it("getParsedTokenAccountsByOwner lists a wallet's USDC and PROJ, funded by the localnet's mint path", async () => {
    const wallet = Keypair.generate().publicKey;
    const mints = await mintsOf(served);
    expect(Object.keys(mints).sort()).toEqual(['PROJ', 'USDC']);
    expect(
      (await served.call('localnet_mintTo', [wallet.toBase58(), mints.USDC, '12500000'])).result,
    ).toBeTypeOf('string');
    expect(
      (await served.call('localnet_mintTo', [wallet.toBase58(), mints.PROJ, 3_250_000_000])).result,
    ).toBeTypeOf('string');
    const { value } = await connection.getParsedTokenAccountsByOwner(wallet, { programId: TOKEN_PROGRAM_ID });
    const byMint = Object.fromEntries(
      value.map(({ account }) => {
        const info = (account.data as ParsedAccountData).parsed.info;
        return [info.mint, info.tokenAmount];
      }),
    );
    expect(byMint[mints.USDC!]).toEqual({
      amount: '12500000',
      decimals: 6,
      uiAmount: 12.5,
      uiAmountString: '12.5',
    });
    expect(byMint[mints.PROJ!]).toEqual({
      amount: '3250000000',
      decimals: 9,
      uiAmount: 3.25,
      uiAmountString: '3.25',
    });
    const usdcOnly = await connection.getParsedTokenAccountsByOwner(wallet, {
      mint: new PublicKey(mints.USDC!),
    });
    expect(usdcOnly.value).toHaveLength(1);
    const rawAccounts = await connection.getTokenAccountsByOwner(wallet, { programId: TOKEN_PROGRAM_ID });
    const decoded = rawAccounts.value.map(({ account }) => AccountLayout.decode(account.data));
    expect(decoded.map((a) => a.amount).sort((a, b) => Number(a - b))).toEqual([12_500_000n, 3_250_000_000n]);
    const parsedAccount = await connection.getParsedAccountInfo(new PublicKey(mints.USDC!));
    expect((parsedAccount.value!.data as ParsedAccountData).parsed).toMatchObject({
      type: 'mint',
      info: { decimals: 6, isInitialized: true, mintAuthority: served.localnet.mintAuthority },
    });
  });
});

describe('address history', () => {
  it('getSignaturesForAddress pages through 50 transfers, newest first, with memos', async () => {
    const sender = Keypair.generate();
    await sendAndConfirmTransaction(
      connection,
      new Transaction().add(
        SystemProgram.transfer({
          fromPubkey: payer.publicKey,
          toPubkey: sender.publicKey,
          lamports: LAMPORTS_PER_SOL,
        }),
      ),
      [payer],
    );
    const sent: string[] = [];
    for (let i = 0; i < 50; i++) {
      const latest = await connection.getLatestBlockhash();
      const tx = new Transaction({ feePayer: sender.publicKey, ...latest }).add(
        SystemProgram.transfer({
          fromPubkey: sender.publicKey,
          toPubkey: Keypair.generate().publicKey,
          lamports: 1_000_000,
        }),
        new TransactionInstruction({ programId: MEMO_PROGRAM, keys: [], data: Buffer.from(`payment ${i}`) }),
      );
      tx.sign(sender);
      sent.push(await connection.sendRawTransaction(tx.serialize()));
    }
    const latest = await connection.getLatestBlockhash();
    await connection.confirmTransaction({ signature: sent.at(-1)!, ...latest });

    const pages: string[][] = [];
    let before: string | undefined;
    for (;;) {
      const page = await connection.getSignaturesForAddress(sender.publicKey, {
        limit: 20,
        ...(before ? { before } : {}),
      });
      if (page.length === 0) break;
      pages.push(page.map((info) => info.signature));
      for (const info of page) {
        expect(info.blockTime).toBeTypeOf('number');
        expect(['confirmed', 'finalized']).toContain(info.confirmationStatus);
      }
      before = page.at(-1)!.signature;
    }
    expect(pages.map((page) => page.length)).toEqual([20, 20, 11]);
    // The funding transfer, then the 50 payments: listed newest first.
    const listed = pages.flat();
    expect(listed.slice(0, 50)).toEqual([...sent].reverse());
    const newest = await connection.getSignaturesForAddress(sender.publicKey, { limit: 1 });
    expect(newest[0]!.memo).toBe('[10] payment 49');
    const untilTenth = await connection.getSignaturesForAddress(sender.publicKey, { until: sent[39] });
    expect(untilTenth.map((info) => info.signature)).toEqual(sent.slice(40).reverse());

    const { slot } = newest[0]!;
    const block = await connection.getBlock(slot, {
      maxSupportedTransactionVersion: 0,
      commitment: 'confirmed',
    });
    expect(block?.transactions.map((tx) => tx.transaction.signatures[0])).toContain(sent[49]);
    expect(await connection.getBlockTime(slot)).toBe(block?.blockTime);
  });
});

describe('@solana/kit', () => {
  it('sendAndConfirmTransactionFactory confirms through createSolanaRpcSubscriptions', async () => {
    const rpc = createSolanaRpc(served.rpc.url);
    const rpcSubscriptions = createSolanaRpcSubscriptions(served.rpc.wsUrl);
    const sendAndConfirmTransaction = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions });
    const sender = await generateKeyPairSigner();
    const recipient = await generateKeyPairSigner();
    await connection.confirmTransaction({
      signature: await connection.requestAirdrop(new PublicKey(sender.address), LAMPORTS_PER_SOL),
      ...(await connection.getLatestBlockhash()),
    });
    const { value: latestBlockhash } = await rpc.getLatestBlockhash().send();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(sender, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(latestBlockhash, m),
      (m) =>
        appendTransactionMessageInstruction(
          getTransferSolInstruction({
            source: sender,
            destination: recipient.address,
            amount: lamports(1_000_000n),
          }),
          m,
        ),
    );
    const signed = await signTransactionMessageWithSigners(message);
    assertIsSendableTransaction(signed);
    assertIsTransactionWithBlockhashLifetime(signed);
    await sendAndConfirmTransaction(signed, { commitment: 'confirmed' });
    const { value } = await rpc.getBalance(recipient.address, { commitment: 'confirmed' }).send();
    expect(value).toBe(1_000_000n);
    const landed = await rpc
      .getTransaction(getSignatureFromTransaction(signed), {
        commitment: 'confirmed',
        encoding: 'jsonParsed',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    expect(landed?.version).toBe(0);
  });

  it('answers subscriptions on the RPC port itself too (websocket upgrade)', async () => {
    const onRpcPort = createSolanaRpcSubscriptions(served.rpc.url.replace('http://', 'ws://'));
    const abort = new AbortController();
    const slots = await onRpcPort.slotNotifications().subscribe({ abortSignal: abort.signal });
    for await (const notification of slots) {
      expect(notification.slot).toBeGreaterThan(0n);
      break;
    }
    abort.abort();
  });
});
