import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type AccountInfo,
  Connection,
  type Context,
  type KeyedAccountInfo,
  Keypair,
  type Logs,
  type SignatureResult,
  type SlotInfo,
} from '@solana/web3.js';
import { encodeBase58 } from '@token-actions/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeChain, type FakeChain, randomSignature } from '../../test/support/fake-chain.js';
import { createPubSubServer, type PubSubServer } from './server.js';

/**
 * @solana/web3.js's own subscription calls against the pubsub service. Its HTTP endpoint is a stub
 * that knows nothing of the transactions (statuses null), so `confirmTransaction` can only succeed
 * through the websocket.
 */

let server: PubSubServer;
let chain: FakeChain;
let stub: Server;
let connection: Connection;

function until<T>(register: (resolve: (value: T) => void) => void, timeoutMs = 10_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
    register((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

/** Ticks the fake clock until `done` settles (each tick lets the socket deliver). */
async function tickUntil<T>(done: Promise<T>, maxTicks = 60): Promise<T> {
  let settled = false;
  done.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < maxTicks && !settled; i++) {
    chain.tick();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return done;
}

beforeAll(async () => {
  server = createPubSubServer({ getAccount: (address, commitment) => chain.getAccount(address, commitment) });
  chain = createFakeChain(() => server);
  const { url } = await server.listen({ port: 0 });
  stub = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const { id, method } = JSON.parse(body);
      const results: Record<string, unknown> = {
        getBlockHeight: 1,
        getSlot: Number(chain.slot),
        getSignatureStatuses: { context: { slot: Number(chain.slot) }, value: [null] },
      };
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ jsonrpc: '2.0', id, result: results[method] ?? null }));
    });
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', () => resolve()));
  connection = new Connection(`http://127.0.0.1:${(stub.address() as AddressInfo).port}`, {
    wsEndpoint: url,
    commitment: 'confirmed',
  });
});

afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => stub.close(() => resolve()));
});

describe('@solana/web3.js Connection subscriptions', () => {
  it('onAccountChange sees a balance change, decoded by web3.js', async () => {
    const address = Keypair.generate().publicKey;
    const owner = Keypair.generate().publicKey;
    const seen = until<[AccountInfo<Buffer>, Context]>((resolve) => {
      const id = connection.onAccountChange(address, (info, context) => {
        resolve([info, context]);
        void connection.removeAccountChangeListener(id);
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 100)); // the subscription reaches the server
    const landedAt = Number(chain.slot);
    chain.land(
      new Map([
        [
          address.toBase58(),
          { lamports: 1_234n, owner: owner.toBase58(), data: Uint8Array.from([7, 7]), executable: false },
        ],
      ]),
    );
    const [info, context] = await tickUntil(seen);
    expect(info.lamports).toBe(1_234);
    expect(info.owner.equals(owner)).toBe(true);
    expect([...info.data]).toEqual([7, 7]);
    expect(context.slot).toBe(landedAt);
  });

  it('onSignature and confirmTransaction resolve from the signature notification', async () => {
    const signature = randomSignature();
    const viaListener = until<[SignatureResult, Context]>((resolve) => {
      connection.onSignature(signature, (result, context) => resolve([result, context]), 'confirmed');
    });
    const viaConfirm = connection.confirmTransaction({
      signature,
      blockhash: Keypair.generate().publicKey.toBase58(),
      lastValidBlockHeight: 1_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    chain.land(new Map(), { signature, err: { InstructionError: [0, { Custom: 6001 }] } });
    const [result] = await tickUntil(viaListener);
    expect(result.err).toEqual({ InstructionError: [0, { Custom: 6001 }] });
    const confirmed = await tickUntil(viaConfirm);
    expect(confirmed.value.err).toEqual({ InstructionError: [0, { Custom: 6001 }] });
  });

  it('onSlotChange and onRootChange follow the clock', async () => {
    const slot = until<SlotInfo>((resolve) => {
      const id = connection.onSlotChange((info) => {
        resolve(info);
        void connection.removeSlotChangeListener(id);
      });
    });
    const root = until<number>((resolve) => {
      const id = connection.onRootChange((value) => {
        resolve(value);
        void connection.removeRootChangeListener(id);
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const info = await tickUntil(slot);
    expect(info.slot).toBeGreaterThan(0);
    expect(info.parent).toBe(info.slot - 1);
    expect(await tickUntil(root)).toBe(info.root);
  });

  it('onLogs (all and by address) and onProgramAccountChange with filters', async () => {
    const program = Keypair.generate().publicKey;
    const mentioned = Keypair.generate().publicKey;
    const account = Keypair.generate().publicKey;
    const allLogs = until<Logs>((resolve) => connection.onLogs('all', (logs) => resolve(logs)));
    const mentionLogs = until<Logs>((resolve) => connection.onLogs(mentioned, (logs) => resolve(logs)));
    const programChange = until<KeyedAccountInfo>((resolve) =>
      connection.onProgramAccountChange(program, (keyed) => resolve(keyed), {
        commitment: 'confirmed',
        filters: [{ dataSize: 2 }, { memcmp: { offset: 1, bytes: encodeBase58(Uint8Array.from([0])) } }],
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const landed = chain.land(
      new Map([
        [
          account.toBase58(),
          { lamports: 5n, owner: program.toBase58(), data: Uint8Array.from([9, 0]), executable: false },
        ],
      ]),
      { accountKeys: [account.toBase58(), mentioned.toBase58()], logs: ['Program log: hello'] },
    );
    const [all, mention, keyed] = await tickUntil(Promise.all([allLogs, mentionLogs, programChange]));
    expect(all).toEqual({ signature: landed.signature, err: null, logs: ['Program log: hello'] });
    expect(mention.signature).toBe(landed.signature);
    expect(keyed.accountId.equals(account)).toBe(true);
    expect(keyed.accountInfo.lamports).toBe(5);
  });
});
