import { describe, expect, it } from 'vitest';
import { DEFAULT_TENANT } from '../../domain/tenant.js';
import { donate } from './donate.js';
import { AS_DEFAULT, setup } from './test-support.js';
import { track } from './track.js';
import { sweepUnsettled } from './tracking.js';

describe('track', () => {
  it('is tracked pending -> finalized as slots pass', async () => {
    const t = await setup();
    const { transactionId } = (
      await donate(t.deps, { currency: 'SOL', account: t.sender, amount: '1', priority: 'Min' }, AS_DEFAULT)
    )._unsafeUnwrap();
    expect((await track(t.deps, { transactionId, tenant: DEFAULT_TENANT }))._unsafeUnwrap().status).toBe(
      'processed',
    );
    t.chain.advance(40);
    expect((await sweepUnsettled(t.deps))._unsafeUnwrap()).toEqual({ checked: 1, moved: 1 });
    expect((await track(t.deps, { transactionId, tenant: DEFAULT_TENANT }))._unsafeUnwrap().status).toBe(
      'finalized',
    );
  });
});
