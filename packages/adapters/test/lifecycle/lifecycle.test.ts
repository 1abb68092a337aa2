import {
  type ActionDeps,
  type ChainPort,
  DEFAULT_POLICIES,
  domainError,
  type PublicKey,
  prepareIntent,
  recordAndSend,
  type Signature,
  signPrepared,
  track,
  trackingPass,
} from '@token-actions/core';
import {
  createFakeFeeOracle,
  createInMemoryKeystore,
  createSequentialIds,
  createTestMac,
} from '@token-actions/core/testing';
import { errAsync } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiteSvmChain, type LocalnetChain } from '../../src/chain/index.js';
import { createPgliteClient, createPgStore, migrate, type SqlClient } from '../../src/store/index.js';

/**
 * Issue 3, must-show 3, on the real localnet and the real store: a transaction whose blockhash
 * expires without landing ends `expired`; one that fails on chain ends `failed` with the
 * program's error in the tracking record.
 */
describe('transaction lifecycle on LiteSVM + PGlite', () => {
  let chain: LocalnetChain;
  let sql: SqlClient;
  let deps: ActionDeps;
  let sender: PublicKey;

  beforeAll(async () => {
    chain = await createLiteSvmChain({
      slotIntervalMs: 0,
      finalityDepthSlots: 4,
      blockhashValiditySlots: 150,
    });
    sql = await createPgliteClient();
    await migrate(sql);
    const keystore = createInMemoryKeystore();
    const named = async (n: string) => (await keystore.named(n))._unsafeUnwrap();
    const accounts = {
      treasury: await named('treasury'),
      escrowVault: await named('escrow'),
      mintAuthority: await named('mint'),
    };
    chain.fund(accounts.treasury, 10_000_000_000n);
    deps = {
      chain,
      keystore,
      store: createPgStore(sql),
      fees: createFakeFeeOracle(),
      clock: { now: () => new Date() },
      ids: createSequentialIds(),
      mac: createTestMac(),
      currencies: chain.currencies,
      accounts,
      policies: DEFAULT_POLICIES,
    };
    sender = (await keystore.create())._unsafeUnwrap();
  }, 60_000);
  afterAll(async () => {
    chain?.close();
    await sql?.close();
  });

  const transfer = (from: string, amount: bigint) =>
    ({
      kind: 'transfer',
      currency: chain.currencies.native,
      from,
      to: deps.accounts.treasury,
      amount,
    }) as never;

  it('a transaction that fails on chain ends failed with the program error', async () => {
    const from = sender;
    chain.fund(from, 1_000_000_000n);
    // Both pass simulation against the same balance; only the first can execute.
    const a = (await prepareIntent(deps, transfer(from, 900_000_000n), 'Low'))._unsafeUnwrap();
    const b = (await prepareIntent(deps, transfer(from, 800_000_000n), 'Low'))._unsafeUnwrap();
    const sa = (await signPrepared(deps, a))._unsafeUnwrap();
    const sb = (await signPrepared(deps, b))._unsafeUnwrap();
    (await recordAndSend(deps, a, sa, { kind: 'donation' }))._unsafeUnwrap();
    (await recordAndSend(deps, b, sb, { kind: 'donation' }))._unsafeUnwrap();
    chain.tick(5);
    (await trackingPass(deps, { owner: 'test' }))._unsafeUnwrap();

    const ok = (await track(deps, { transactionId: sa.id }))._unsafeUnwrap();
    const failed = (await track(deps, { transactionId: sb.id }))._unsafeUnwrap();
    expect(ok.status).toBe('finalized');
    expect(failed.status).toBe('failed');
    expect(failed.record?.error).toMatch(/insufficient lamports/i);
    expect(failed.record?.slot).toBeGreaterThan(0n);
  });

  it('a transaction that never lands ends expired once its blockhash passes, and is never sent after', async () => {
    const from = sender;
    chain.fund(from, 1_000_000_000n);
    // The network drops every send: the record exists, the chain never sees the transaction.
    const dropping: ChainPort = {
      ...chain,
      cluster: chain.cluster,
      send: () => errAsync(domainError('CHAIN_UNAVAILABLE', 'dropped')),
    };
    const lossy = { ...deps, chain: dropping };
    const p = (await prepareIntent(lossy, transfer(from, 1_000n), 'Low'))._unsafeUnwrap();
    const s = (await signPrepared(lossy, p))._unsafeUnwrap();
    const { record } = (await recordAndSend(lossy, p, s, { kind: 'donation' }))._unsafeUnwrap();
    expect(record.status).toBe('pending');

    (await trackingPass(lossy, { owner: 'test', leaseMs: 0 }))._unsafeUnwrap();
    expect((await track(lossy, { transactionId: s.id }))._unsafeUnwrap().status).toBe('pending');

    chain.tick(Number(p.lastValidBlockHeight - chain.slot()) + 1);
    const pass = (await trackingPass(lossy, { owner: 'test', leaseMs: 0 }))._unsafeUnwrap();
    expect(pass.rebroadcast).toBe(0);
    expect((await track(deps, { transactionId: s.id as Signature }))._unsafeUnwrap().status).toBe('expired');
    // Too late to land now: the chain refuses the expired blockhash.
    expect((await chain.send(s.wire)).isErr()).toBe(true);
    expect((await chain.getStatuses([s.id]))._unsafeUnwrap()[0]).toBeNull();
  });
});
