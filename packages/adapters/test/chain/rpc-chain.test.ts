import type { ChainPort, Currencies, PublicKey, Signature } from '@token-actions/core';
import { createLocalnet, type Localnet, type LocalnetRpc, startLocalnetRpc } from '@token-actions/localnet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessChain, createRpcChain, discoverRpcCurrencies } from '../../src/chain/index.js';
import { newKey, signPrepared, type TestKey } from './keys.js';

const SOL = 1_000_000_000n;
let localnet: Localnet;
let rpc: LocalnetRpc;
let currencies: Currencies;
let payer: TestKey;

beforeAll(async () => {
  localnet = await createLocalnet({
    slotIntervalMs: 0,
    finalityDepthSlots: 4,
    blockhashValiditySlots: 20,
  });
  rpc = await startLocalnetRpc(localnet, { port: 0 });
  ({ currencies } = await discoverRpcCurrencies({ rpcUrl: rpc.url }));
  payer = newKey();
  localnet.fund(payer.address, 1_000n * SOL);
});

afterAll(async () => {
  await rpc.close();
  localnet.close();
});

const adapter = (extra: Partial<Parameters<typeof createRpcChain>[0]> = {}): ChainPort =>
  createRpcChain({ rpcUrl: rpc.url, cluster: 'localnet', currencies, ...extra });

describe('createRpcChain', () => {
  it('finds the localnet mints, or reads given mints on chain', async () => {
    expect(currencies.stable).toEqual(localnet.currencies.stable);
    expect(currencies.project).toEqual(localnet.currencies.project);
    const given = await discoverRpcCurrencies({
      rpcUrl: rpc.url,
      stableMint: localnet.currencies.stable.mint!,
      projectMint: localnet.currencies.project.mint!,
      projectTicker: 'acme',
    });
    expect(given.localnet).toBeUndefined();
    expect(given.currencies.project).toMatchObject({
      code: 'ACME',
      decimals: 9,
      tokenProgram: currencies.project.tokenProgram,
    });
    expect(given.currencies.stable.decimals).toBe(6);
    await expect(
      discoverRpcCurrencies({
        rpcUrl: rpc.url,
        stableMint: payer.address,
        projectMint: currencies.project.mint!,
      }),
    ).rejects.toThrow(/not a token mint/);
    await expect(
      discoverRpcCurrencies({ rpcUrl: rpc.url, stableMint: currencies.stable.mint! }),
    ).rejects.toThrow(/both USDC_MINT and PROJECT_MINT/);
  });

  it('reads lamport balances beyond 2^53 exactly', async () => {
    const faucet = localnet.mintAuthority;
    const viaRpc = (await adapter().getBalance(faucet, currencies.native))._unsafeUnwrap();
    const direct = (
      await createInProcessChain(localnet).getBalance(faucet, currencies.native)
    )._unsafeUnwrap();
    expect(viaRpc).toBe(direct);
    expect(viaRpc > 2n ** 53n).toBe(true);
  });

  it('explains a failed transaction in the same words once confirmed, also in another process', async () => {
    const chain = adapter({ blockhashCacheMs: 0 });
    const sender = newKey();
    (await chain.airdrop(sender.address, currencies.stable, 100n))._unsafeUnwrap();
    const prepare = async () =>
      (
        await chain.prepare(
          {
            kind: 'transfer',
            currency: currencies.stable,
            from: sender.address,
            to: newKey().address,
            amount: 70n,
          },
          { feePayer: payer.address, computeUnitPrice: 0n },
        )
      )._unsafeUnwrap();
    const first = await prepare();
    const second = await prepare();
    (await chain.send(signPrepared(first, [payer, sender])))._unsafeUnwrap();
    const failedId = (await chain.send(signPrepared(second, [payer, sender])))._unsafeUnwrap();
    const atOnce = (await chain.getStatuses([failedId]))._unsafeUnwrap()[0];
    expect(atOnce?.error).toBe('token program failed: insufficient funds');
    localnet.tick(1);
    const fresh = adapter();
    const confirmed = (await fresh.getStatuses([failedId]))._unsafeUnwrap()[0];
    expect(confirmed).toMatchObject({
      commitment: 'confirmed',
      error: 'token program failed: insufficient funds',
    });
    expect((await fresh.getStatuses(['bad' as Signature]))._unsafeUnwrap()).toEqual([null]);
  });

  it('reuses a cached blockhash, and fetches a new one once it expired', async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      if (typeof init?.body === 'string' && init.body.includes('getLatestBlockhash')) calls++;
      return fetch(input, init);
    };
    const chain = adapter({ blockhashCacheMs: 60_000, fetch: counting });
    const intent = () =>
      chain.prepare(
        {
          kind: 'transfer',
          currency: currencies.native,
          from: payer.address,
          to: newKey().address,
          amount: SOL,
        },
        { feePayer: payer.address, computeUnitPrice: 0n },
      );
    const a = (await intent())._unsafeUnwrap();
    const b = (await intent())._unsafeUnwrap();
    expect(b.blockhash).toBe(a.blockhash);
    expect(calls).toBe(1);
    localnet.tick(25);
    const c = (await intent())._unsafeUnwrap();
    expect(c.blockhash).not.toBe(a.blockhash);
    expect(calls).toBe(2);
    expect((await chain.send(signPrepared(c, [payer]))).isOk()).toBe(true);
    const late = await chain.send(signPrepared(a, [payer]));
    expect(late._unsafeUnwrapErr()).toMatchObject({
      code: 'INVALID_INPUT',
      message: 'blockhash not found or expired',
    });
  });

  it('airdrops only what the cluster can give', async () => {
    const owner = newKey().address;
    const foreign = { code: 'BONK', kind: 'stable' as const, decimals: 5, mint: newKey().address };
    expect((await adapter().airdrop(owner, foreign, 1n))._unsafeUnwrapErr().code).toBe('NOT_SUPPORTED');
    expect(
      (await adapter({ localnetFaucet: false }).airdrop(owner, currencies.stable, 1n))._unsafeUnwrapErr()
        .code,
    ).toBe('NOT_SUPPORTED');
    expect(
      (await adapter({ cluster: 'mainnet-beta' }).airdrop(owner, currencies.native, 1n))._unsafeUnwrapErr()
        .code,
    ).toBe('NOT_SUPPORTED');
    expect((await adapter().airdrop(owner, currencies.native, 10n ** 30n))._unsafeUnwrapErr().code).toBe(
      'INVALID_AMOUNT',
    );
    const id = (await adapter().airdrop(owner, currencies.project, 12n))._unsafeUnwrap();
    expect((await adapter().getStatuses([id]))._unsafeUnwrap()[0]).not.toBeNull();
    expect((await adapter().getBalance(owner, currencies.project))._unsafeUnwrap()).toBe(12n);
  });

  it('reports the cluster, and CHAIN_UNAVAILABLE when the endpoint is down', async () => {
    const chain = adapter({ publicRpcUrl: 'http://localnet.example:8899' });
    expect(chain.cluster).toEqual({ name: 'localnet', rpcUrl: 'http://localnet.example:8899' });
    const down = createRpcChain({ rpcUrl: 'http://127.0.0.1:9', cluster: 'custom', currencies });
    expect((await down.getBlockHeight())._unsafeUnwrapErr().code).toBe('CHAIN_UNAVAILABLE');
    expect(
      (await down.getBalance(payer.address as PublicKey, currencies.native))._unsafeUnwrapErr().code,
    ).toBe('CHAIN_UNAVAILABLE');
    const prepared = await down.prepare(
      {
        kind: 'transfer',
        currency: currencies.native,
        from: payer.address,
        to: newKey().address,
        amount: 1n,
      },
      { feePayer: payer.address, computeUnitPrice: 0n },
    );
    expect(prepared._unsafeUnwrapErr().code).toBe('CHAIN_UNAVAILABLE');
  });
});
