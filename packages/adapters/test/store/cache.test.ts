import type { Signature, TransactionRecord } from '@token-actions/core';
import { createInMemoryStore } from '@token-actions/core/testing';
import { describe, expect, it } from 'vitest';
import { withSettledTransactionCache } from '../../src/store/index.js';

const record = (id: string): TransactionRecord => ({
  id: id as Signature,
  kind: 'donation',
  status: 'pending',
  computeUnitPrice: 0n,
  computeUnitLimit: 1,
  feeLamports: 5_000n,
  wire: new Uint8Array([1]),
  blockhash: 'h',
  lastValidBlockHeight: 10n,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

describe('settled-transaction cache', () => {
  it('reads unsettled records through and serves settled ones from memory', async () => {
    const inner = createInMemoryStore();
    let reads = 0;
    const counting = {
      ...inner,
      transactions: { ...inner.transactions, get: (id: Signature) => (reads++, inner.transactions.get(id)) },
    };
    const store = withSettledTransactionCache(counting);
    await store.transactions.insert(record('a'));

    expect((await store.transactions.get('a' as Signature))._unsafeUnwrap()?.status).toBe('pending');
    expect((await store.transactions.get('a' as Signature))._unsafeUnwrap()?.status).toBe('pending');
    expect(reads).toBe(2);

    await store.transactions.transition('a' as Signature, 'pending', 'processed');
    expect((await store.transactions.get('a' as Signature))._unsafeUnwrap()?.status).toBe('processed');
    await store.transactions.transition('a' as Signature, 'processed', 'finalized');
    expect((await store.transactions.get('a' as Signature))._unsafeUnwrap()?.status).toBe('finalized');
    const before = reads;
    for (let i = 0; i < 5; i++)
      expect((await store.transactions.get('a' as Signature))._unsafeUnwrap()?.status).toBe('finalized');
    expect(reads).toBe(before);
  });

  it('is bounded', async () => {
    const inner = createInMemoryStore();
    const store = withSettledTransactionCache(inner, 2);
    for (const id of ['a', 'b', 'c']) {
      await store.transactions.insert({ ...record(id), status: 'finalized' });
      await store.transactions.get(id as Signature);
    }
    expect((await store.transactions.get('a' as Signature))._unsafeUnwrap()?.id).toBe('a');
  });
});
