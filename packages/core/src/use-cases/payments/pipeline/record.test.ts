import { describe, expect, it } from 'vitest';
import { DEFAULT_TENANT } from '../../../domain/tenant.js';
import { setup } from '../test-support.js';
import { track } from '../track.js';
import { sweepUnsettled } from '../tracking.js';
import { prepareIntent } from './prepare.js';
import { recordAndSend } from './record.js';
import { signPrepared } from './sign.js';

describe('recordAndSend', () => {
  it('keeps a transaction whose send failed, and marks it expired once its blockhash passes', async () => {
    const t = await setup();
    const intent = {
      kind: 'transfer',
      currency: t.chain.currencies.native,
      from: t.sender,
      to: t.deps.accounts.treasury,
      amount: 1n,
    } as const;
    const prepared = (await prepareIntent(t.deps, intent, 'Low'))._unsafeUnwrap();
    const signed = (await signPrepared(t.deps, prepared))._unsafeUnwrap();
    const executedBefore = t.chain.executedCount();
    t.chain.setUnavailable(true);
    const sent = (
      await recordAndSend(t.deps, prepared, signed, { tenant: DEFAULT_TENANT, kind: 'donation' })
    )._unsafeUnwrap();
    t.chain.setUnavailable(false);
    expect(sent.record.status).toBe('pending');
    t.chain.advance(Number(prepared.lastValidBlockHeight - t.chain.slot()) + 1);
    (await sweepUnsettled(t.deps))._unsafeUnwrap();
    expect(
      (await track(t.deps, { transactionId: signed.id, tenant: DEFAULT_TENANT }))._unsafeUnwrap().status,
    ).toBe('expired');
    expect(t.chain.executedCount()).toBe(executedBefore);
  });
});
