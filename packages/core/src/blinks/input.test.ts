import { describe, expect, it } from 'vitest';
import type { PublicKey } from '../domain/public-key.js';
import { createTestDeps } from '../testing/index.js';
import { actionCatalog } from './catalog.js';
import { readActionRequest } from './input.js';

const WALLET = 'Hb1PCQdhoLHH9yEXRjbkwmsQ1ZqyLKmUNvsSq9nsnDCt' as PublicKey;
const OTHER = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' as PublicKey;

/** The fake ports: the catalog is built from their currencies. */
const setup = () => createTestDeps();

describe('reading a POST (spec "POST Request")', () => {
  it('takes values from the query string and from data, data winning, and defaults the priority', async () => {
    const t = await setup();
    const charity = actionCatalog(t.deps.currencies).find((d) => d.path === 'charity')!;
    const read = readActionRequest(
      charity,
      { amount: '1', currency: 'usdc', charity: OTHER },
      {
        account: WALLET,
        data: { amount: '2', useEscrow: ['true'] },
      },
    )._unsafeUnwrap();
    expect(read).toEqual({
      account: WALLET,
      fields: { charity: OTHER, amount: '2', currency: 'USDC', priority: 'Medium', useEscrow: true },
    });
  });

  it('refuses a missing required value, a multi-value, a bad escrow flag and a body without account', async () => {
    const t = await setup();
    const [sol, , , charity] = actionCatalog(t.deps.currencies);
    expect(readActionRequest(sol!, {}, { account: WALLET })._unsafeUnwrapErr().message).toMatch(
      /amount is required/,
    );
    expect(
      readActionRequest(sol!, {}, { account: WALLET, data: { amount: ['1', '2'] } })._unsafeUnwrapErr()
        .message,
    ).toMatch(/single/);
    expect(
      readActionRequest(
        charity!,
        { charity: OTHER, amount: '1', currency: 'SOL', useEscrow: 'maybe' },
        {
          account: WALLET,
        },
      )._unsafeUnwrapErr().message,
    ).toMatch(/useEscrow/);
    expect(readActionRequest(sol!, { amount: '1' }, {})._unsafeUnwrapErr().code).toBe('INVALID_PUBLIC_KEY');
    expect(readActionRequest(sol!, { amount: '1' }, [])._unsafeUnwrapErr().code).toBe('INVALID_INPUT');
  });
});
