import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkthrough } from '../../../../scripts/walkthrough.js';
import { type Harness, startHarness } from '../support/harness.js';

describe('interface A walkthrough on the embedded default', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({}, undefined, { freshDatabase: true });
  }, 60_000);
  afterAll(async () => h?.close());

  it('runs every route end to end and every balance matches to the base unit', async () => {
    const lines: string[] = [];
    const result = await walkthrough({ baseUrl: h.baseUrl, apiKey: h.apiKey, log: (l) => lines.push(l) });
    expect(Object.values(result.statuses).every((s) => s === 'finalized')).toBe(true);
    expect(Object.keys(result.statuses)).toHaveLength(14);
    expect(result.balances.sender).toEqual({ SOL: '8250000000', USDC: '957500000', PROJ: '820000000000' });
    expect(result.nft).toMatchObject({ name: 'Walkthrough #1', symbol: 'WALK', supply: '1', decimals: 0 });
  }, 120_000);
});
