import { describe, expect, it } from 'vitest';
import { DEFAULT_TENANT } from '../../domain/tenant.js';
import { getBalances } from './accounts.js';
import { setup } from './test-support.js';

describe('balances', () => {
  it('reports every currency with base units and decimals', async () => {
    const t = await setup();
    const out = (await getBalances(t.deps, { publicKey: t.sender, tenant: DEFAULT_TENANT }))._unsafeUnwrap();
    expect(out.managed).toBe(true);
    expect(out.balances).toEqual([
      { currency: 'SOL', baseUnits: '10000000000', amount: '10', decimals: 9 },
      { currency: 'USDC', baseUnits: '1000000000', amount: '1000', decimals: 6 },
      { currency: 'PROJ', baseUnits: '0', amount: '0', decimals: 9 },
    ]);
  });
});
