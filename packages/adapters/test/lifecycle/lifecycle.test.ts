import {
  type ActionDeps,
  type ChainPort,
  DEFAULT_POLICIES,
  DEFAULT_TENANT,
  DEFAULT_TENANT_ACCESS,
  domainError,
  type PublicKey,
  preview,
  type Signature,
  sign,
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
import { createPgliteClient, createPgStore, migrate, type SqlClient } from '../../src/store/index.js';
import { type LocalnetChain, openLocalnetChain } from '../chain/localnet.js';

/**
 * On the real localnet and the real store: a transaction whose blockhash expires without landing
 * ends `expired`; one that fails on chain ends `failed` with the program's error in the tracking
 * record.
 */
const AS_DEFAULT = { tenant: DEFAULT_TENANT_ACCESS };

describe('transaction lifecycle on LiteSVM + PGlite', () => {
  let chain: LocalnetChain;
  let sql: SqlClient;
  let deps: ActionDeps;
  let sender: PublicKey;

  beforeAll(async () => {
    chain = await openLocalnetChain({
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

  // A SOL donation to the treasury, built and simulated now (preview) and sent later (sign), so
  // two can be simulated against the same balance before either lands.
  const donation = (from: string, amount: string) => ({
    account: from,
    transactionType: 'donation',
    details: { currency: 'SOL', amount, priority: 'Low' },
  });

  it('a transaction that fails on chain ends failed with the program error', async () => {
    const from = sender;
    chain.fund(from, 1_000_000_000n);
    // Both pass simulation against the same balance; only the first can execute.
    const a = (await preview(deps, donation(from, '0.9'), DEFAULT_TENANT_ACCESS))._unsafeUnwrap();
    const b = (await preview(deps, donation(from, '0.8'), DEFAULT_TENANT_ACCESS))._unsafeUnwrap();
    const sa = (
      await sign(deps, { ...donation(from, '0.9'), preview: a.preview }, AS_DEFAULT)
    )._unsafeUnwrap();
    const sb = (
      await sign(deps, { ...donation(from, '0.8'), preview: b.preview }, AS_DEFAULT)
    )._unsafeUnwrap();
    chain.tick(5);
    (await trackingPass(deps, { owner: 'test' }))._unsafeUnwrap();

    const ok = (
      await track(deps, { transactionId: sa.transactionId, tenant: DEFAULT_TENANT })
    )._unsafeUnwrap();
    const failed = (
      await track(deps, { transactionId: sb.transactionId, tenant: DEFAULT_TENANT })
    )._unsafeUnwrap();
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
    const p = (await preview(lossy, donation(from, '0.000001'), DEFAULT_TENANT_ACCESS))._unsafeUnwrap();
    const sent = (
      await sign(lossy, { ...donation(from, '0.000001'), preview: p.preview }, AS_DEFAULT)
    )._unsafeUnwrap();
    const s = (await deps.store.transactions.get(sent.transactionId as Signature))._unsafeUnwrap()!;
    expect(s.status).toBe('pending');

    (await trackingPass(lossy, { owner: 'test', leaseMs: 0 }))._unsafeUnwrap();
    expect((await track(lossy, { transactionId: s.id, tenant: DEFAULT_TENANT }))._unsafeUnwrap().status).toBe(
      'pending',
    );

    chain.tick(Number(p.lastValidBlockHeight - chain.slot()) + 1);
    const pass = (await trackingPass(lossy, { owner: 'test', leaseMs: 0 }))._unsafeUnwrap();
    expect(pass.rebroadcast).toBe(0);
    expect((await track(deps, { transactionId: s.id, tenant: DEFAULT_TENANT }))._unsafeUnwrap().status).toBe(
      'expired',
    );
    // Too late to land now: the chain refuses the expired blockhash.
    expect((await chain.send(s.wire)).isErr()).toBe(true);
    expect((await chain.getStatuses([s.id]))._unsafeUnwrap()[0]).toBeNull();
  });
});
