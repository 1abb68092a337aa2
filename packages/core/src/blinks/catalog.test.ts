import { describe, expect, it } from 'vitest';
import type { PublicKey } from '../domain/public-key.js';
import { createTestDeps } from '../testing/index.js';
import { actionCatalog } from './catalog.js';
import { actionMetadata, actionsJson, presetValues, solanaChainId } from './metadata.js';

const OTHER = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' as PublicKey;

/** The fake ports: the catalog is built from their currencies. */
const setup = () => createTestDeps();

describe('the actions catalog (spec "actions.json", "GET Response", "Action Parameters")', () => {
  it('has one action per currency for donations, and charity, merchant and mint', async () => {
    const t = await setup();
    const catalog = actionCatalog(t.deps.currencies);
    expect(catalog.map((d) => d.path)).toEqual([
      'donate/sol',
      'donate/usdc',
      'donate/proj',
      'charity',
      'merchant',
      'mint',
    ]);
    expect(actionsJson(catalog, '/v1/actions').rules[0]).toEqual({
      pathPattern: '/donate/sol',
      apiPath: '/v1/actions/donate/sol',
    });
  });

  it('types every parameter and leaves {name} placeholders for the client', async () => {
    const t = await setup();
    const merchant = actionCatalog(t.deps.currencies).find((d) => d.path === 'merchant')!;
    const metadata = actionMetadata(merchant, {
      path: '/v1/actions/merchant',
      iconUrl: 'https://x/i.svg',
      fixed: {},
    });
    const form = metadata.links.actions.at(-1)!;
    expect(form.href).toBe(
      '/v1/actions/merchant?merchant={merchant}&amount={amount}&currency={currency}&priority={priority}&useEscrow={useEscrow}',
    );
    const byName = Object.fromEntries(form.parameters!.map((p) => [p.name, p]));
    expect(byName.amount).toMatchObject({ type: 'number', required: true, min: 1e-9 });
    expect(byName.currency).toMatchObject({ type: 'select' });
    expect(byName.priority!.type === 'select' && byName.priority!.options.map((o) => o.value)).toEqual([
      'Min',
      'Low',
      'Medium',
      'High',
      'VeryHigh',
    ]);
    expect(new RegExp((byName.merchant as { pattern: string }).pattern).test(OTHER)).toBe(true);
  });

  it('drops parameters fixed by the query string and offers presets only without an amount', async () => {
    const t = await setup();
    const sol = actionCatalog(t.deps.currencies)[0]!;
    const open = actionMetadata(sol, { path: '/p', iconUrl: 'https://x/i.svg', fixed: {} });
    expect(open.links.actions.map((a) => a.href)).toEqual([
      '/p?amount=0.1',
      '/p?amount=1',
      '/p?amount={amount}&priority={priority}',
    ]);
    const fixed = presetValues(sol, { amount: '2', unrelated: 'x' });
    expect(fixed).toEqual({ amount: '2' });
    const one = actionMetadata(sol, { path: '/p', iconUrl: 'https://x/i.svg', fixed });
    expect(one.links.actions.map((a) => a.href)).toEqual(['/p?amount=2&priority={priority}']);
  });

  it('CAIP-2 ids use the first 32 characters of the genesis hash', () => {
    expect(solanaChainId('5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d')).toBe(
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    );
  });
});
