import fc from 'fast-check';
import {
  anyJson,
  hostileString,
  invalidAmount,
  invalidKey,
  invalidKeyString,
  randomKey,
  randomSignature,
  smallAmount,
  unaffordableAmount,
} from './arbitraries.js';
import type { FuzzContext } from './context.js';

/**
 * The route table of the fuzz suite: one row per route, saying how to build a valid request and
 * which field values the route must refuse whatever else the request holds.
 *
 * Adding interface B (or OAuth) later is adding rows: `iface: 'B'` makes the checks expect
 * `{code, message, rateLimit}` error bodies (checks.ts), and `auth` says which credential the
 * generator sends (`ctx.bearer('read' | 'write')` once the OAuth harness hands out tokens).
 */
export type Iface = 'A' | 'public' | 'B' | 'oauth' | 'admin';

export interface FieldSpec {
  readonly required: boolean;
  /** Values the route accepts for this field (the request may still fail for other reasons). */
  readonly valid: fc.Arbitrary<unknown>;
  /** Values the route must refuse with a 4xx, whatever the other fields hold. */
  readonly invalid: fc.Arbitrary<unknown>;
}

export interface ParamSpec {
  readonly valid: fc.Arbitrary<string>;
  /** Values the route must refuse (400 or 404). */
  readonly invalid: fc.Arbitrary<string>;
}

export interface RouteSpec {
  readonly id: string;
  readonly iface: Iface;
  readonly method: 'GET' | 'POST';
  /** Path with `{name}` parameters. */
  readonly template: string;
  readonly params: Readonly<Record<string, ParamSpec>>;
  /** JSON body fields; `optionalBody` routes also take no body at all (and any content type). */
  readonly body?: { readonly fields: Readonly<Record<string, FieldSpec>>; readonly optionalBody?: boolean };
  /** A success changes state (balances, rows). */
  readonly mutates: boolean;
  readonly requiresAuth: boolean;
  /** Whole bodies this route must refuse beyond single bad fields (a tampered preview, ...). */
  readonly refusedBodies?: fc.Arbitrary<Record<string, unknown>>;
  /** Statuses the route may answer besides 200 (all bad input must land in one of these). */
  readonly errorStatuses: readonly number[];
}

export const A_ERRORS = [400, 401, 404, 409, 413, 415] as const;
const PRIORITIES = ['Min', 'Low', 'Medium', 'High', 'VeryHigh'] as const;

export function buildPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
}

export function routeTable(ctx: FuzzContext): RouteSpec[] {
  const k = ctx.keys;
  const managedValid = fc.constantFrom(k.funded, k.emptyManaged);
  const anyValidKey = fc.oneof(
    fc.constantFrom(k.funded, k.emptyManaged, k.treasury, ...k.unmanaged),
    randomKey,
  );
  const codes = ctx.currencies.map((c) => c.code);
  const minDecimals = Math.min(...ctx.currencies.map((c) => c.decimals));

  const priority: FieldSpec = {
    required: true,
    valid: fc.constantFrom(...PRIORITIES),
    invalid: fc.oneof(
      fc.constantFrom('Urgent', 'Maximum', 'none', 'VeryHighest', '🚀', 'Medium\u0000', '', 'Low '),
      hostileString.filter((s) => !(PRIORITIES as readonly string[]).includes(s)),
      fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.constant(['Low'])),
    ),
  };
  const optional = (f: FieldSpec): FieldSpec => ({ ...f, required: false });
  const amount = (decimals: number): FieldSpec => ({
    required: true,
    valid: smallAmount(decimals),
    invalid: invalidAmount,
  });
  const currency: FieldSpec = {
    required: true,
    valid: fc.constantFrom(...codes),
    invalid: fc.oneof(
      fc.constantFrom('BTC', 'ETH', 'XYZ', 'SOLANA', 'US DC', 'ÜSDC', 'SOL\u0000', ' SOL', '', 'usdc '),
      fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.constant(['SOL'])),
    ),
  };
  const keyField = (valid: fc.Arbitrary<string>, required = true): FieldSpec => ({
    required,
    valid,
    invalid: invalidKey(valid),
  });
  const useEscrow: FieldSpec = {
    required: false,
    valid: fc.boolean(),
    invalid: fc.constantFrom('true', 'false', 1, 0, null, 'yes', [true], {}),
  };
  const payment = (beneficiary: 'charity' | 'merchant'): Record<string, FieldSpec> => ({
    [beneficiary]: keyField(anyValidKey),
    amount: amount(minDecimals),
    currency,
    useEscrow,
    account: keyField(managedValid, false),
    priority: optional(priority),
  });

  const bytes = (min: number, max: number) =>
    fc.string({
      unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789 #-_'),
      minLength: min,
      maxLength: max,
    });
  const mintFields: Record<string, FieldSpec> = {
    name: {
      required: true,
      valid: bytes(1, 32),
      invalid: fc.oneof(
        fc.constant(''),
        fc.integer({ min: 33, max: 2_000 }).map((n) => 'n'.repeat(n)),
        fc.constant('🚀'.repeat(9)),
        anyJson.filter((v) => typeof v !== 'string'),
      ),
    },
    symbol: {
      required: true,
      valid: bytes(1, 10),
      invalid: fc.oneof(
        fc.constant(''),
        fc.integer({ min: 11, max: 500 }).map((n) => 'S'.repeat(n)),
        fc.constant('€€€€'),
        anyJson.filter((v) => typeof v !== 'string'),
      ),
    },
    uri: {
      required: true,
      valid: fc.webUrl({ size: 'xsmall' }).filter((u) => Buffer.byteLength(u) <= 200),
      invalid: fc.oneof(
        fc.constantFrom('not a uri', '', '/relative/path', 'example.org/x.json', '//example.org'),
        fc.integer({ min: 190, max: 3_000 }).map((n) => `https://example.org/${'p'.repeat(n)}`),
        anyJson.filter((v) => typeof v !== 'string'),
      ),
    },
    owner: keyField(anyValidKey, false),
    priority: optional(priority),
  };

  const donationDetails = fc.record({
    currency: fc.constantFrom(...codes),
    amount: smallAmount(minDecimals),
    priority: fc.constantFrom(...PRIORITIES),
  });
  const detailsFor = fc.oneof(
    donationDetails,
    fc.record({
      charity: anyValidKey,
      amount: smallAmount(minDecimals),
      currency: fc.constantFrom(...codes),
    }),
    fc.record({
      merchant: anyValidKey,
      amount: smallAmount(minDecimals),
      currency: fc.constantFrom(...codes),
      useEscrow: fc.boolean(),
    }),
    fc.record({ name: bytes(1, 32), symbol: bytes(1, 10), uri: fc.constant('https://example.org/m.json') }),
  );
  const transactionType: FieldSpec = {
    required: true,
    valid: fc.constantFrom('donation', 'charity_donation', 'merchant_payment', 'mint'),
    invalid: fc.oneof(
      fc.constantFrom('swap', 'DONATION', 'Donation', 'transfer', '', 'donation '),
      hostileString.filter((s) => !['donation', 'charity_donation', 'merchant_payment', 'mint'].includes(s)),
      fc.integer(),
      fc.constant(null),
    ),
  };
  const details: FieldSpec = {
    required: true,
    valid: detailsFor,
    invalid: fc.oneof(
      fc.constantFrom(null, 'details', 42, true, [], [{}]),
      fc.constant({}),
      donationDetails.map((d) => ({ ...d, amount: '1e3' })),
      donationDetails.map((d) => ({ ...d, currency: 'BTC' })),
    ),
  };

  // A preview the service did not issue, or one issued for a different request.
  const previewFixture = fc.nat().map((i) => ctx.previews[i % Math.max(1, ctx.previews.length)]!);
  const tampered = fc
    .tuple(previewFixture, fc.nat(), fc.constantFrom('A', 'B', '_', '-', '0'))
    .map(([p, i, c]) => {
      const at = 3 + (i % Math.max(1, p.preview.length - 3));
      const swapped = p.preview[at] === c ? (c === 'A' ? 'B' : 'A') : c;
      return { ...p.request, preview: p.preview.slice(0, at) + swapped + p.preview.slice(at + 1) };
    });
  const mismatched = fc
    .tuple(previewFixture, fc.constantFrom('account', 'type', 'details', 'extra'))
    .map(([p, what]) => {
      const details = { ...p.request.details };
      if (what === 'details') details.amount = details.amount === '0.75' ? '0.5' : '0.75';
      if (what === 'extra') details.note = 'x';
      return {
        account: what === 'account' ? k.emptyManaged : p.request.account,
        transactionType:
          what === 'type'
            ? p.request.transactionType === 'mint'
              ? 'donation'
              : 'mint'
            : p.request.transactionType,
        details,
        preview: p.preview,
      };
    });
  const forged = fc.oneof(
    fc.constantFrom('v1..', 'v1.e30.', 'v2.a.b', ''),
    hostileString,
    fc.base64String().map((s) => `v1.${s}.${s}`),
  );

  const txParam: ParamSpec = {
    valid: fc.oneof(fc.constantFrom(...ctx.transactions), randomSignature),
    invalid: fc.oneof(randomKey, invalidKeyString(randomSignature)),
  };
  const keyParam = (valid: fc.Arbitrary<string>): ParamSpec => ({ valid, invalid: invalidKeyString(valid) });
  const escrowParam: ParamSpec = {
    valid: fc.constantFrom(...ctx.escrows),
    invalid: fc.oneof(
      fc.stringMatching(/^esc_[A-Za-z0-9_-]{22}$/),
      hostileString.filter((s) => s.length > 0 && !ctx.escrows.includes(s)),
    ),
  };

  const A = { iface: 'A', requiresAuth: true, errorStatuses: A_ERRORS } as const;
  const routes: RouteSpec[] = [
    ...ctx.currencies.map(
      (c): RouteSpec => ({
        ...A,
        id: `donate-${c.code.toLowerCase()}`,
        method: 'POST',
        template: `/v1/api/donate/${c.code.toLowerCase()}`,
        params: {},
        body: { fields: { account: keyField(managedValid), amount: amount(c.decimals), priority } },
        mutates: true,
        refusedBodies: fc.record({
          account: fc.constant(k.funded),
          amount: unaffordableAmount,
          priority: fc.constantFrom(...PRIORITIES),
        }),
      }),
    ),
    {
      ...A,
      id: 'donate-unknown-currency',
      method: 'POST',
      template: '/v1/api/donate/{currency}',
      params: {
        currency: {
          valid: fc.constantFrom('btc', 'eth', 'sol2', 'SOL', 'Usdc', 'x'),
          invalid: fc.constantFrom('btc', 'eth', 'sol2', 'SOL', 'Usdc', 'x'),
        },
      },
      body: { fields: { account: keyField(managedValid), amount: amount(minDecimals), priority } },
      mutates: false,
    },
    {
      ...A,
      id: 'mint',
      method: 'POST',
      template: '/v1/api/mint',
      params: {},
      body: { fields: mintFields },
      mutates: true,
    },
    {
      ...A,
      id: 'charity-donate',
      method: 'POST',
      template: '/v1/api/charity/donate',
      params: {},
      body: { fields: payment('charity') },
      mutates: true,
      refusedBodies: fc.record({
        charity: fc.constantFrom(...k.unmanaged),
        amount: unaffordableAmount,
        currency: fc.constantFrom(...codes),
        account: fc.constant(k.funded),
      }),
    },
    {
      ...A,
      id: 'merchant-payment',
      method: 'POST',
      template: '/v1/api/merchant/payment',
      params: {},
      body: { fields: payment('merchant') },
      mutates: true,
      refusedBodies: fc.record({
        merchant: fc.constantFrom(...k.unmanaged),
        amount: unaffordableAmount,
        currency: fc.constantFrom(...codes),
        useEscrow: fc.boolean(),
      }),
    },
    {
      ...A,
      id: 'transaction-preview',
      method: 'POST',
      template: '/v1/api/transaction/preview',
      params: {},
      body: { fields: { account: keyField(managedValid), transactionType, details } },
      mutates: false,
    },
    {
      ...A,
      id: 'transaction-sign',
      method: 'POST',
      template: '/v1/api/transaction/sign',
      params: {},
      body: {
        fields: {
          account: keyField(managedValid),
          transactionType,
          details,
          preview: { required: true, valid: previewFixture.map((p) => p.preview), invalid: forged },
        },
      },
      mutates: true,
      refusedBodies: fc.oneof(tampered, mismatched),
    },
    {
      ...A,
      id: 'transaction-track',
      method: 'GET',
      template: '/v1/api/transaction/track/{transactionId}',
      params: { transactionId: txParam },
      mutates: false,
    },
    {
      ...A,
      id: 'account-create',
      method: 'POST',
      template: '/v1/api/accounts',
      params: {},
      body: {
        optionalBody: true,
        fields: {
          label: {
            required: false,
            valid: fc.string({ maxLength: 64 }),
            invalid: fc.oneof(
              fc.integer({ min: 65, max: 5_000 }).map((n) => 'l'.repeat(n)),
              fc.constantFrom(1, null, true, [], {}),
            ),
          },
        },
      },
      mutates: true,
    },
    {
      ...A,
      id: 'account-balances',
      method: 'GET',
      template: '/v1/api/accounts/{publicKey}',
      params: { publicKey: keyParam(anyValidKey) },
      mutates: false,
    },
    {
      ...A,
      id: 'account-airdrop',
      method: 'POST',
      template: '/v1/api/accounts/{publicKey}/airdrop',
      params: { publicKey: keyParam(anyValidKey) },
      body: { fields: { currency, amount: amount(minDecimals) } },
      mutates: true,
    },
    {
      ...A,
      id: 'nft',
      method: 'GET',
      template: '/v1/api/nfts/{mint}',
      params: { mint: keyParam(fc.oneof(fc.constantFrom(...ctx.nfts), randomKey)) },
      mutates: false,
    },
    {
      ...A,
      id: 'escrow',
      method: 'GET',
      template: '/v1/api/escrows/{id}',
      params: { id: escrowParam },
      mutates: false,
    },
    {
      ...A,
      id: 'escrow-release',
      method: 'POST',
      template: '/v1/api/escrows/{id}/release',
      params: { id: escrowParam },
      mutates: true,
    },
    {
      ...A,
      id: 'escrow-refund',
      method: 'POST',
      template: '/v1/api/escrows/{id}/refund',
      params: { id: escrowParam },
      mutates: true,
    },
    {
      id: 'healthz',
      iface: 'public',
      method: 'GET',
      template: '/healthz',
      params: {},
      mutates: false,
      requiresAuth: false,
      errorStatuses: [404],
    },
    {
      id: 'openapi',
      iface: 'public',
      method: 'GET',
      template: '/v1/openapi.json',
      params: {},
      mutates: false,
      requiresAuth: false,
      errorStatuses: [404],
    },
    {
      id: 'docs',
      iface: 'public',
      method: 'GET',
      template: '/v1/docs',
      params: {},
      mutates: false,
      requiresAuth: false,
      errorStatuses: [404],
    },
    // Interface B rows go here once its routes are mounted, e.g.
    // { id: 'swap-quote', iface: 'B', method: 'GET', template: '/v1/project/swap', query: {...}, ... }
  ];
  return routes;
}
