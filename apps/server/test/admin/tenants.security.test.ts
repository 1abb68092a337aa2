import { encodeBase58 } from '@token-actions/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { type Answer, adminOf, asKey, sleep } from './support.js';

type Call = ReturnType<typeof asKey>;

const randomKey = () => encodeBase58(crypto.getRandomValues(new Uint8Array(32)));
const randomSignature = () => encodeBase58(crypto.getRandomValues(new Uint8Array(64)));

/**
 * Tenant isolation on one server: two tenants with keys issued through the admin API. Every
 * interface A route that names an account, escrow, transaction, NFT or preview of the other tenant
 * answers as it would for one that does not exist, and no balance of either tenant moves.
 */
describe('tenant isolation over HTTP', () => {
  let h: Harness;
  let alpha: Call;
  let beta: Call;
  const own = {} as {
    account: string;
    transaction: string;
    escrow: string;
    mint: string;
    mintTransaction: string;
    preview: { account: string; transactionType: string; details: object; preview: string };
    mintPreview: { account: string; transactionType: string; details: object; preview: string };
  };
  let betaAccount: string;
  const exercised = new Set<string>();

  async function balances(call: Call, account: string) {
    const res = await call('GET', `/v1/api/accounts/${account}`);
    expect(res.status).toBe(200);
    return res.json.balances as Array<{ currency: string; baseUnits: string }>;
  }

  async function until(call: Call, id: string, statuses: string[]) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await call('GET', `/v1/api/transaction/track/${id}`);
      if (statuses.includes(res.json.status)) return;
      if (Date.now() > deadline) throw new Error(`transaction ${id} stayed ${res.json.status}`);
      await sleep(50);
    }
  }

  /** Beta's attempt on one of alpha's things, recorded against its route template. */
  async function attempt(template: string, method: string, path: string, body?: unknown): Promise<Answer> {
    exercised.add(`${method} ${template}`);
    return beta(method, path, body);
  }

  beforeAll(async () => {
    h = await startHarness();
    const admin = adminOf(h);
    alpha = asKey(h.baseUrl, (await admin.createKey('alpha app', 'alpha')).apiKey);
    beta = asKey(h.baseUrl, (await admin.createKey('beta app', 'beta')).apiKey);

    own.account = (await alpha('POST', '/v1/api/accounts', {})).json.publicKey;
    betaAccount = (await beta('POST', '/v1/api/accounts', {})).json.publicKey;
    for (const [call, account] of [
      [alpha, own.account],
      [beta, betaAccount],
    ] as const) {
      for (const currency of ['SOL', 'USDC', 'PROJ']) {
        const funded = await call('POST', `/v1/api/accounts/${account}/airdrop`, { currency, amount: '10' });
        expect(funded.status, JSON.stringify(funded.json)).toBe(200);
      }
    }
    const merchant = randomKey();
    const donation = await alpha('POST', '/v1/api/donate/usdc', {
      account: own.account,
      amount: '1',
      priority: 'Low',
    });
    own.transaction = donation.json.transactionId;
    const escrowed = await alpha('POST', '/v1/api/merchant/payment', {
      merchant,
      amount: '2',
      currency: 'USDC',
      useEscrow: true,
      account: own.account,
    });
    expect(escrowed.status, JSON.stringify(escrowed.json)).toBe(200);
    own.escrow = escrowed.json.escrowId;
    const minted = await alpha('POST', '/v1/api/mint', {
      name: 'Alpha',
      symbol: 'ALPHA',
      uri: 'https://alpha.example/1.json',
    });
    own.mint = minted.json.mint;
    own.mintTransaction = minted.json.transactionId;
    // The escrow is funded, so only the tenant check stands between beta and the vault.
    await until(alpha, escrowed.json.transactionId, ['confirmed', 'finalized']);
    await until(alpha, own.mintTransaction, ['confirmed', 'finalized']);

    const request = {
      account: own.account,
      transactionType: 'donation',
      details: { currency: 'SOL', amount: '1', priority: 'Low' },
    };
    own.preview = {
      ...request,
      preview: (await alpha('POST', '/v1/api/transaction/preview', request)).json.preview,
    };
    const mintRequest = {
      account: own.account,
      transactionType: 'mint',
      details: { name: 'P', symbol: 'P', uri: 'https://p.example/1.json' },
    };
    own.mintPreview = {
      ...mintRequest,
      preview: (await alpha('POST', '/v1/api/transaction/preview', mintRequest)).json.preview,
    };
  }, 120_000);
  afterAll(async () => h?.close());

  it('answers 404 for the other tenant’s account, escrow, transaction and NFT, with the body of an unknown one', async () => {
    const unknownAccountGet = await beta('GET', `/v1/api/accounts/${own.account}`);
    expect(unknownAccountGet.status).toBe(404);
    exercised.add('GET /v1/api/accounts/{publicKey}');
    const airdrop = await attempt(
      '/v1/api/accounts/{publicKey}/airdrop',
      'POST',
      `/v1/api/accounts/${own.account}/airdrop`,
      {
        currency: 'SOL',
        amount: '1',
      },
    );
    expect(airdrop.status).toBe(404);
    expect(airdrop.json).toEqual({
      message: `account ${own.account} was not found`,
      code: 'ACCOUNT_NOT_FOUND',
    });

    const track = await attempt(
      '/v1/api/transaction/track/{transactionId}',
      'GET',
      `/v1/api/transaction/track/${own.transaction}`,
    );
    const trackUnknown = await beta('GET', `/v1/api/transaction/track/${randomSignature()}`);
    expect(track.status).toBe(404);
    expect(trackUnknown.status).toBe(404);
    expect(track.json.message.replace(own.transaction, 'X')).toBe(
      trackUnknown.json.message.replace(/transaction \S+/, 'transaction X'),
    );
    expect((await beta('GET', `/v1/api/transaction/track/${own.mintTransaction}`)).status).toBe(404);

    const unknownEscrow = await beta('GET', '/v1/api/escrows/esc_nobody');
    for (const [method, suffix] of [
      ['GET', ''],
      ['POST', '/release'],
      ['POST', '/refund'],
    ] as const) {
      const res = await attempt(
        `/v1/api/escrows/{id}${suffix}`,
        method,
        `/v1/api/escrows/${own.escrow}${suffix}`,
      );
      expect(res.status).toBe(404);
      expect(res.json.message.replace(own.escrow, 'X')).toBe(
        unknownEscrow.json.message.replace('esc_nobody', 'X'),
      );
    }

    const nft = await attempt('/v1/api/nfts/{mint}', 'GET', `/v1/api/nfts/${own.mint}`);
    const nftUnknown = await beta('GET', `/v1/api/nfts/${randomKey()}`);
    expect(nft.status).toBe(404);
    expect(nft.json).toEqual(nftUnknown.json);
  });

  it('refuses the other tenant’s account as sender exactly like an unknown account', async () => {
    const stranger = randomKey();
    const senders: Array<[string, (account: string) => object]> = [
      ['/v1/api/donate/sol', (account) => ({ account, amount: '1', priority: 'Low' })],
      ['/v1/api/donate/usdc', (account) => ({ account, amount: '1', priority: 'Low' })],
      ['/v1/api/donate/proj', (account) => ({ account, amount: '1', priority: 'Low' })],
      [
        '/v1/api/charity/donate',
        (account) => ({ account, charity: betaAccount, amount: '1', currency: 'USDC' }),
      ],
      [
        '/v1/api/merchant/payment',
        (account) => ({ account, merchant: betaAccount, amount: '1', currency: 'USDC', useEscrow: true }),
      ],
      [
        '/v1/api/transaction/preview',
        (account) => ({
          account,
          transactionType: 'donation',
          details: { currency: 'SOL', amount: '1', priority: 'Low' },
        }),
      ],
    ];
    for (const [path, body] of senders) {
      const foreign = await attempt(path, 'POST', path, body(own.account));
      const unknown = await beta('POST', path, body(stranger));
      expect(foreign.status, path).toBe(400);
      expect(foreign.json.message.replace(own.account, 'X'), path).toBe(
        unknown.json.message.replace(stranger, 'X'),
      );
    }
  });

  it('answers the other tenant’s webhook endpoint exactly like an unknown one, and lists none of it', async () => {
    const mine = await alpha('POST', '/v1/api/webhooks', { url: 'https://93.184.215.14/alpha-hooks' });
    expect(mine.status).toBe(200);
    const id = mine.json.id as string;
    for (const method of ['GET', 'DELETE']) {
      const foreign = await attempt('/v1/api/webhooks/{id}', method, `/v1/api/webhooks/${id}`);
      const unknown = await beta(method, '/v1/api/webhooks/we_nobody');
      expect(foreign.status, method).toBe(404);
      expect(foreign.json.message.replace(id, 'X'), method).toBe(
        unknown.json.message.replace('we_nobody', 'X'),
      );
    }
    const listed = await attempt('/v1/api/webhooks', 'GET', '/v1/api/webhooks');
    expect(listed.json.webhooks).toEqual([]);
    expect((await alpha('GET', `/v1/api/webhooks/${id}`)).json.url).toBe('https://93.184.215.14/alpha-hooks');
  });

  it('refuses the other tenant’s previews exactly like forged ones', async () => {
    for (const preview of [own.preview, own.mintPreview]) {
      const foreign = await attempt('/v1/api/transaction/sign', 'POST', '/v1/api/transaction/sign', preview);
      const forged = await beta('POST', '/v1/api/transaction/sign', {
        ...preview,
        preview: `${preview.preview.slice(0, -4)}AAAA`,
      });
      expect(foreign.status).toBe(400);
      expect(foreign.json).toEqual(forged.json);
    }
  });

  it('does not replay the other tenant’s Idempotency-Key', async () => {
    const a = await alpha('POST', '/v1/api/accounts', {}, { 'idempotency-key': 'shared-key' });
    const b = await beta('POST', '/v1/api/accounts', {}, { 'idempotency-key': 'shared-key' });
    expect(b.status).toBe(200);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.json.publicKey).not.toBe(a.json.publicKey);
  });

  it('leaves both tenants’ balances unchanged, and alpha still sees all of it', async () => {
    const before = { alpha: await balances(alpha, own.account), beta: await balances(beta, betaAccount) };
    // Every refused attempt once more, then time for anything that slipped through to land.
    await beta('POST', '/v1/api/donate/sol', { account: own.account, amount: '1', priority: 'Low' });
    await beta('POST', `/v1/api/escrows/${own.escrow}/refund`);
    await beta('POST', '/v1/api/transaction/sign', own.preview);
    await sleep(500);
    expect(await balances(alpha, own.account)).toEqual(before.alpha);
    expect(await balances(beta, betaAccount)).toEqual(before.beta);

    expect((await alpha('GET', `/v1/api/escrows/${own.escrow}`)).json.status).toBe('held');
    expect((await alpha('GET', `/v1/api/transaction/track/${own.transaction}`)).status).toBe(200);
    expect((await alpha('GET', `/v1/api/nfts/${own.mint}`)).json.name).toBe('Alpha');
    expect((await alpha('GET', `/v1/api/accounts/${own.account}`)).json.managed).toBe(true);
    expect((await alpha('POST', '/v1/api/transaction/sign', own.preview)).status).toBe(200);
  });

  it('covered every interface A route that can name another tenant’s thing', async () => {
    const doc = (await (await fetch(`${h.baseUrl}/v1/openapi.json`)).json()) as {
      paths: Record<string, object>;
    };
    const routes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/v1/api/'))
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    // Creating an account, minting or registering a webhook endpoint names nothing that exists yet.
    const nothingToName = ['POST /v1/api/accounts', 'POST /v1/api/mint', 'POST /v1/api/webhooks'];
    expect(routes.filter((r) => !nothingToName.includes(r)).sort()).toEqual([...exercised].sort());
  });
});
