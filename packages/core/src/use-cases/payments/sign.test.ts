import { describe, expect, it } from 'vitest';
import { DEFAULT_TENANT_ACCESS } from '../../domain/tenant.js';
import { preview } from './preview.js';
import { sign } from './sign.js';
import { AS_DEFAULT, balance, setup } from './test-support.js';

describe('sign', () => {
  it('signing one preview twice sends one transfer and returns one id', async () => {
    const t = await setup();
    const req = {
      account: t.sender,
      transactionType: 'donation',
      details: { currency: 'USDC', amount: '3', priority: 'Low' },
    };
    const p = (await preview(t.deps, req, DEFAULT_TENANT_ACCESS))._unsafeUnwrap();
    expect(p.balanceChanges).toEqual([
      { account: t.sender, currency: 'USDC', amount: '-3' },
      { account: t.deps.accounts.treasury, currency: 'USDC', amount: '3' },
    ]);
    const executedBefore = t.chain.executedCount();
    const a = (await sign(t.deps, { ...req, preview: p.preview }, AS_DEFAULT))._unsafeUnwrap();
    const b = (await sign(t.deps, { ...req, preview: p.preview }, AS_DEFAULT))._unsafeUnwrap();
    expect(a.transactionId).toBe(b.transactionId);
    expect(t.chain.executedCount() - executedBefore).toBe(1);
    expect(await balance(t, t.sender, 'USDC')).toBe(997_000_000n);
  });

  it('refuses a preview after its expiry', async () => {
    const t = await setup();
    const req = {
      account: t.sender,
      transactionType: 'donation',
      details: { currency: 'SOL', amount: '1', priority: 'Low' },
    };
    const p = (await preview(t.deps, req, DEFAULT_TENANT_ACCESS))._unsafeUnwrap();
    t.clock.advance(t.deps.policies.previewTtlMs + 1);
    expect((await sign(t.deps, { ...req, preview: p.preview }, AS_DEFAULT))._unsafeUnwrapErr().code).toBe(
      'PREVIEW_EXPIRED',
    );
  });
});
