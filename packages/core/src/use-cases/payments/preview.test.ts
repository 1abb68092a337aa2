import { describe, expect, it } from 'vitest';
import { DEFAULT_TENANT_ACCESS } from '../../domain/tenant.js';
import { preview } from './preview.js';
import { setup } from './test-support.js';

describe('preview', () => {
  it('previews nothing onto the chain', async () => {
    const t = await setup();
    const before = t.chain.executedCount();
    (
      await preview(
        t.deps,
        {
          account: t.sender,
          transactionType: 'mint',
          details: { name: 'A', symbol: 'A', uri: 'https://a/1' },
        },
        DEFAULT_TENANT_ACCESS,
      )
    )._unsafeUnwrap();
    expect(t.chain.executedCount()).toBe(before);
  });
});
