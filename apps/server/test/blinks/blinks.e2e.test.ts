/**
 * A wallet client's walk through the Solana Actions. It fetches
 * /actions.json, follows every rule to its action, fills each parameter, posts its account, signs
 * the returned transaction with its own key, lands it on the localnet through the localnet's
 * JSON-RPC, sees the balances move by exactly the amounts, and tracks the signature to finalized.
 * Every answer is checked against the spec's schemas and carries the CORS and action headers.
 */
import { Connection, Keypair, LAMPORTS_PER_SOL, VersionedTransaction } from '@solana/web3.js';
import type { Currency, PublicKey } from '@token-actions/core';
import { parseAmount } from '@token-actions/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type Harness, startHarness } from '../support/harness.js';
import {
  ActionErrorSchema,
  ActionGetResponseSchema,
  ActionsJsonSchema,
  type LinkedActionSchema,
  TransactionResponseSchema,
} from './spec-schemas.js';

type LinkedAction = z.infer<typeof LinkedActionSchema>;

let h: Harness;
let connection: Connection;
let chainId: string;
const wallet = Keypair.generate();
const walletKey = wallet.publicKey.toBase58() as PublicKey;

/** Every action answer: the CORS set of @solana/actions and the two action headers. */
function expectActionHeaders(headers: Headers) {
  expect(headers.get('access-control-allow-origin')).toBe('*');
  expect(headers.get('access-control-allow-methods')).toContain('POST');
  expect(headers.get('access-control-allow-headers')).toContain('Content-Type');
  expect(headers.get('access-control-expose-headers')).toContain('X-Action-Version');
  expect(headers.get('x-action-version')).toBe('2.4');
  expect(headers.get('x-blockchain-ids')).toBe(chainId);
}

async function get(path: string) {
  const res = await fetch(new URL(path, h.baseUrl));
  return { res, json: (await res.json()) as unknown };
}

async function post(href: string, body: unknown) {
  const res = await fetch(new URL(href, h.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'https://blinks.example' },
    body: JSON.stringify(body),
  });
  return { res, json: (await res.json()) as unknown };
}

const currencyOf = (code: string): Currency => h.server.composition.deps.currencies.byCode(code)!;
const balance = async (owner: string, code: string) =>
  (await h.server.composition.deps.chain.getBalance(owner as PublicKey, currencyOf(code)))._unsafeUnwrap();
const baseUnits = (amount: string, code: string) => parseAmount(amount, currencyOf(code))._unsafeUnwrap();

async function track(id: string) {
  return h.call('GET', `/v1/api/transaction/track/${id}`);
}

async function trackUntilFinalized(id: string) {
  for (let i = 0; i < 200; i++) {
    const { status, json } = await track(id);
    expect(status).toBe(200);
    if (json.status === 'finalized') return json;
    expect(['pending', 'processed', 'confirmed']).toContain(json.status);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${id} did not finalize`);
}

/** Polls the localnet's JSON-RPC (web3.js's confirmTransaction would open a websocket). */
async function confirmed(signature: string) {
  for (let i = 0; i < 200; i++) {
    const status = (await connection.getSignatureStatus(signature)).value;
    if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') {
      expect(status.err).toBeNull();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${signature} was not confirmed`);
}

async function until<T>(read: () => Promise<T>, expected: T) {
  for (let i = 0; i < 200 && (await read()) !== expected; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(await read()).toBe(expected);
}

/** Fills the `{name}` placeholders of a linked action's href, as a blink client does. */
function fill(action: LinkedAction, values: Record<string, string>): string {
  for (const parameter of action.parameters ?? []) {
    expect(values[parameter.name], `a value for ${parameter.name}`).toBeDefined();
    if (parameter.type === 'select') {
      expect(parameter.options.map((o) => o.value)).toContain(values[parameter.name]);
    } else if (parameter.pattern) {
      expect(values[parameter.name]).toMatch(new RegExp(parameter.pattern));
    }
  }
  return action.href.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name]!));
}

beforeAll(async () => {
  h = await startHarness();
  connection = new Connection(h.server.credentials.rpcUrl, 'confirmed');
  chainId = `solana:${(await connection.getGenesisHash()).slice(0, 32)}`;
  // The wallet is self-custodied: SOL from the localnet's own faucet (requestAirdrop), tokens
  // through the service's localnet airdrop path (the mint authority stays in the localnet).
  const airdrop = await connection.requestAirdrop(wallet.publicKey, 10 * LAMPORTS_PER_SOL);
  await confirmed(airdrop);
  for (const [currency, amount] of [
    ['USDC', '1000'],
    ['PROJ', '100000'],
  ]) {
    const res = await h.call('POST', `/v1/api/accounts/${walletKey}/airdrop`, { currency, amount });
    expect(res.status).toBe(200);
  }
  await until(() => balance(walletKey, 'PROJ'), baseUnits('100000', 'PROJ'));
}, 60_000);

afterAll(async () => {
  await h?.close();
});

/** What each action is filled with, and whose balances must move by how much. */
interface Case {
  readonly values: Record<string, string>;
  readonly currency?: string;
  readonly amount?: string;
  readonly recipient?: () => string;
}

const charity = Keypair.generate().publicKey.toBase58();
const merchant = Keypair.generate().publicKey.toBase58();

const CASES: Record<string, Case> = {
  '/v1/actions/donate/sol': { values: { amount: '0.25', priority: 'High' }, currency: 'SOL', amount: '0.25' },
  '/v1/actions/donate/usdc': {
    values: { amount: '12.5', priority: 'Low' },
    currency: 'USDC',
    amount: '12.5',
  },
  '/v1/actions/donate/proj': {
    values: { amount: '1500', priority: 'Min' },
    currency: 'PROJ',
    amount: '1500',
  },
  '/v1/actions/charity': {
    values: { charity, amount: '3.75', currency: 'USDC', priority: 'Medium', useEscrow: 'false' },
    currency: 'USDC',
    amount: '3.75',
    recipient: () => charity,
  },
  '/v1/actions/merchant': {
    values: { merchant, amount: '0.5', currency: 'SOL', priority: 'VeryHigh', useEscrow: 'true' },
    currency: 'SOL',
    amount: '0.5',
    recipient: () => h.server.composition.deps.accounts.escrowVault,
  },
  '/v1/actions/mint': {
    values: {
      name: 'Blink Badge',
      symbol: 'BLNK',
      uri: 'https://example.com/badge.json',
      priority: 'Medium',
    },
  },
};

describe('Solana Actions, walked as a wallet client would', () => {
  it('actions.json lists one rule per action, with the action headers', async () => {
    const { res, json } = await get('/actions.json');
    expect(res.status).toBe(200);
    expectActionHeaders(res.headers);
    const rules = ActionsJsonSchema.parse(json).rules;
    expect(rules.map((r) => r.apiPath).sort()).toEqual(Object.keys(CASES).sort());
    const wellKnown = await get('/.well-known/actions.json');
    expect(wellKnown.json).toEqual(json);
  });

  it('follows every rule: metadata, OPTIONS, POST, sign, land, exact balances, tracked to finalized', async () => {
    const rules = ActionsJsonSchema.parse((await get('/actions.json')).json).rules;
    const { treasury } = h.server.composition.deps.accounts;
    for (const rule of rules) {
      const testCase = CASES[rule.apiPath]!;

      const preflight = await fetch(new URL(rule.apiPath, h.baseUrl), {
        method: 'OPTIONS',
        headers: {
          origin: 'https://blinks.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expectActionHeaders(preflight.headers);

      const { res, json } = await get(rule.apiPath);
      expect(res.status, rule.apiPath).toBe(200);
      expectActionHeaders(res.headers);
      const metadata = ActionGetResponseSchema.parse(json);
      const icon = await fetch(metadata.icon);
      expect(icon.headers.get('content-type')).toContain('image/svg+xml');
      expect(await icon.text()).toContain('<svg');
      const form = metadata.links!.actions.find((a) => a.parameters && a.parameters.length > 0)!;
      expect(form, `${rule.apiPath} has a form`).toBeDefined();
      const href = fill(form, testCase.values);

      const amount =
        testCase.amount && testCase.currency ? baseUnits(testCase.amount, testCase.currency) : 0n;
      const code = testCase.currency ?? 'SOL';
      const recipient = testCase.recipient?.() ?? treasury;
      const before = {
        wallet: await balance(walletKey, code),
        walletSol: await balance(walletKey, 'SOL'),
        recipient: await balance(recipient, code),
      };

      const posted = await post(href, { account: walletKey });
      expect(posted.res.status, JSON.stringify(posted.json)).toBe(200);
      expectActionHeaders(posted.res.headers);
      const answer = TransactionResponseSchema.parse(posted.json);

      // The treasury pays the fee and has signed already; the wallet's slot waits for the wallet.
      const transaction = VersionedTransaction.deserialize(Buffer.from(answer.transaction, 'base64'));
      const signers = transaction.message.staticAccountKeys
        .slice(0, transaction.message.header.numRequiredSignatures)
        .map((k) => k.toBase58());
      expect(signers[0]).toBe(treasury);
      const walletSlot = signers.indexOf(walletKey);
      expect(walletSlot).toBeGreaterThan(0);
      expect(transaction.signatures[walletSlot]!.every((b) => b === 0)).toBe(true);

      transaction.sign([wallet]);
      const signature = await connection.sendRawTransaction(transaction.serialize());
      expect(answer.message).toContain(signature);
      await confirmed(signature);

      const finalized = await trackUntilFinalized(signature);
      if (rule.apiPath === '/v1/actions/mint') {
        const mint = /as ([1-9A-HJ-NP-Za-km-z]{32,44})\./.exec(answer.message!)![1]!;
        expect(finalized.mint).toBe(mint);
        const nft = await h.call('GET', `/v1/api/nfts/${mint}`);
        expect(nft.json).toMatchObject({ name: 'Blink Badge', symbol: 'BLNK', owner: walletKey });
        // The wallet co-signed and paid nothing: the treasury paid the fee and the rent.
        expect(await balance(walletKey, 'SOL')).toBe(before.walletSol);
        continue;
      }
      expect(await balance(walletKey, code)).toBe(before.wallet - amount);
      if (code !== 'SOL') expect(await balance(walletKey, 'SOL')).toBe(before.walletSol);
      const fee = BigInt(finalized.feeLamports);
      const received = (await balance(recipient, code)) - before.recipient;
      // The treasury receives a SOL donation and pays the fee out of the same balance.
      expect(received).toBe(recipient === treasury && code === 'SOL' ? amount - fee : amount);
      if (rule.apiPath === '/v1/actions/merchant') {
        const escrow = await h.call('GET', `/v1/api/escrows/${finalized.escrowId}`);
        expect(escrow.json).toMatchObject({ status: 'held', payer: walletKey, beneficiary: merchant });
      }
    }
  });

  it('answers errors in the spec shape, with the headers, and never for a service-held account', async () => {
    const { treasury } = h.server.composition.deps.accounts;
    const cases: [string, unknown, number, RegExp][] = [
      ['/v1/actions/donate/sol?amount=1', { account: 'not-a-key' }, 400, /account/],
      ['/v1/actions/donate/sol?amount=1', { account: treasury }, 400, /held by this service/],
      ['/v1/actions/donate/sol', { account: walletKey }, 400, /amount is required/],
      ['/v1/actions/donate/sol?amount=1e3', { account: walletKey }, 400, /exponent/],
      ['/v1/actions/donate/usdc?amount=999999', { account: walletKey }, 400, /USDC/],
      [
        '/v1/actions/charity?amount=1&currency=USDC',
        { account: walletKey, data: { charity: 'x' } },
        400,
        /charity/,
      ],
      ['/v1/actions/nothing', { account: walletKey }, 404, /no action/],
      ['/v1/actions/donate/sol?amount=1', '{not json', 400, /JSON/],
    ];
    for (const [href, body, status, message] of cases) {
      const res = await fetch(new URL(href, h.baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      expect(res.status, href).toBe(status);
      expectActionHeaders(res.headers);
      expect(ActionErrorSchema.parse(await res.json()).message).toMatch(message);
    }
  });

  it('fixes parameters given in the query string and takes values from data', async () => {
    const { json } = await get(`/v1/actions/merchant?merchant=${merchant}&currency=USDC`);
    const metadata = ActionGetResponseSchema.parse(json);
    const form = metadata.links!.actions.at(-1)!;
    expect(form.parameters!.map((p) => p.name)).toEqual(['amount', 'priority', 'useEscrow']);
    expect(form.href).toContain(`merchant=${merchant}`);
    const posted = await post(form.href.replace(/[?&][a-zA-Z]+=\{\w+\}/g, ''), {
      account: walletKey,
      data: { amount: '2', priority: ['Low'] },
    });
    expect(posted.res.status, JSON.stringify(posted.json)).toBe(200);
    const answer = TransactionResponseSchema.parse(posted.json);
    expect(answer.message).toMatch(/^Pay 2 USDC to /);
    // Never signed by the wallet: it stays pending, is not rebroadcast, and expires unlanded.
    const id = /Transaction ([1-9A-HJ-NP-Za-km-z]{64,88});/.exec(answer.message!)![1]!;
    expect((await track(id)).json.status).toBe('pending');
  });
});
