import { type Harness, startHarness } from '../support/harness.js';
import { createTransport, type Transport } from './http.js';

/**
 * What the fuzz suite knows about the running service: the real service on its embedded defaults
 * (LiteSVM + PGlite, from the integration harness), a funded managed account, an empty one, and
 * real ids (a transaction, an escrow, an NFT, previews) so generated requests reach deep code.
 */
export interface FuzzContext {
  readonly harness: Harness;
  readonly http: Transport;
  readonly apiKey: string;
  readonly maxBodyBytes: number;
  readonly keys: {
    readonly funded: string;
    readonly emptyManaged: string;
    readonly treasury: string;
    readonly escrowVault: string;
    readonly mintAuthority: string;
    readonly unmanaged: readonly string[];
  };
  readonly currencies: readonly { readonly code: string; readonly decimals: number }[];
  readonly transactions: readonly string[];
  readonly escrows: readonly string[];
  readonly nfts: readonly string[];
  /** Fresh previews of known requests (sign them as they are, or tamper with them). */
  previews: PreviewFixture[];
  refreshPreviews(): Promise<void>;
  /** Balances, rows and statuses that no rejected request may change. */
  snapshot(): Promise<StateSnapshot>;
  close(): Promise<void>;
}

export interface PreviewFixture {
  readonly request: { account: string; transactionType: string; details: Record<string, unknown> };
  readonly preview: string;
}

export interface StateSnapshot {
  readonly rows: Record<string, string>;
  readonly balances: Record<string, string>;
}

export const FUZZ_ENV = {
  // Blockhashes stay valid for 150 slots: at 400 ms a preview can still be signed a minute later.
  SLOT_INTERVAL_MS: '400',
  FINALITY_DEPTH_SLOTS: '4',
  PREVIEW_TTL_MS: '3600000',
  TREASURY_AIRDROP_SOL: '1000000',
  WORKER_INTERVAL_MS: '250',
};

/** The seed of every property; override with FUZZ_SEED to explore, or to replay a CI failure. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 0x5eed_0006);

/** The fields setup reads from answers (each route returns the ones it has). */
interface SetupAnswer {
  readonly publicKey: string;
  readonly transactionId: string;
  readonly escrowId: string;
  readonly mint: string;
  readonly preview: string;
}

async function ok(h: Harness, method: string, path: string, body?: unknown): Promise<SetupAnswer> {
  const res = await h.call(method, path, body);
  if (res.status !== 200)
    throw new Error(`fuzz setup: ${method} ${path} answered ${res.status} ${JSON.stringify(res.json)}`);
  return res.json;
}

export async function setupFuzz(): Promise<FuzzContext> {
  const harness = await startHarness(FUZZ_ENV);
  const { deps, sql } = harness.server.composition;
  const funded: string = (await ok(harness, 'POST', '/v1/api/accounts', { label: 'fuzz-funded' })).publicKey;
  const emptyManaged: string = (await ok(harness, 'POST', '/v1/api/accounts', {})).publicKey;
  const currencies = deps.currencies.all.map((c) => ({ code: c.code, decimals: c.decimals }));
  for (const c of currencies) {
    await ok(harness, 'POST', `/v1/api/accounts/${funded}/airdrop`, { currency: c.code, amount: '1000000' });
  }
  const unmanaged = [
    '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
    'Vote111111111111111111111111111111111111111',
    '11111111111111111111111111111111',
  ];
  const donation = await ok(harness, 'POST', '/v1/api/donate/sol', {
    account: funded,
    amount: '0.5',
    priority: 'Low',
  });
  const escrowed = await ok(harness, 'POST', '/v1/api/merchant/payment', {
    merchant: unmanaged[0],
    amount: '1.25',
    currency: 'USDC',
    useEscrow: true,
    account: funded,
  });
  const minted = await ok(harness, 'POST', '/v1/api/mint', {
    name: 'Fuzz #1',
    symbol: 'FZZ',
    uri: 'https://example.org/fuzz/1.json',
  });

  const previewRequests: PreviewFixture['request'][] = [
    {
      account: funded,
      transactionType: 'donation',
      details: { currency: 'SOL', amount: '0.000000123', priority: 'Low' },
    },
    {
      account: funded,
      transactionType: 'charity_donation',
      details: { charity: unmanaged[0]!, amount: '0.25', currency: 'USDC' },
    },
    {
      account: funded,
      transactionType: 'merchant_payment',
      details: { merchant: unmanaged[0]!, amount: '0.5', currency: 'USDC', useEscrow: true },
    },
    {
      account: funded,
      transactionType: 'mint',
      details: { name: 'Fuzz preview', symbol: 'FZP', uri: 'https://example.org/p.json' },
    },
  ];

  const http = createTransport(harness.baseUrl);
  const context: FuzzContext = {
    harness,
    http,
    apiKey: harness.apiKey,
    maxBodyBytes: 64 * 1024,
    keys: {
      funded,
      emptyManaged,
      treasury: deps.accounts.treasury,
      escrowVault: deps.accounts.escrowVault,
      mintAuthority: deps.accounts.mintAuthority,
      unmanaged,
    },
    currencies,
    transactions: [donation.transactionId, escrowed.transactionId, minted.transactionId],
    escrows: [escrowed.escrowId],
    nfts: [minted.mint],
    previews: [],
    async refreshPreviews() {
      const fresh: PreviewFixture[] = [];
      for (const request of previewRequests) {
        const out = await ok(harness, 'POST', '/v1/api/transaction/preview', request);
        fresh.push({ request, preview: out.preview });
      }
      context.previews = fresh;
    },
    async snapshot() {
      const rows: Record<string, string> = {};
      const counts = await sql.query<{ what: string; n: string }>(
        `SELECT 'transactions' AS what, count(*)::text AS n FROM transactions
         UNION ALL SELECT 'escrows:' || status, count(*)::text FROM escrows GROUP BY status
         UNION ALL SELECT 'managed_keys', count(*)::text FROM managed_keys
         UNION ALL SELECT 'api_keys', count(*)::text FROM api_keys`,
      );
      for (const r of counts.rows) rows[r.what] = r.n;
      const balances: Record<string, string> = {};
      const watched = [funded, emptyManaged, deps.accounts.treasury, deps.accounts.escrowVault, ...unmanaged];
      for (const owner of watched) {
        for (const currency of deps.currencies.all) {
          const b = await deps.chain.getBalance(owner as never, currency);
          balances[`${owner}:${currency.code}`] = b.isOk() ? b.value.toString() : `error ${b.error.code}`;
        }
      }
      return { rows, balances };
    },
    async close() {
      http.close();
      await harness.close();
    },
  };
  await context.refreshPreviews();
  return context;
}
