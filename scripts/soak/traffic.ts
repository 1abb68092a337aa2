/** The mixed interface A traffic, and the book of every transaction it got accepted. */
import { randomBytes } from 'node:crypto';
import { log } from './cli.js';
import type { Server } from './topology.js';

interface Answer {
  status: number;
  json: Record<string, unknown> & { message?: string; transactionId?: string };
  headers: Headers;
}

export const stats = {
  sent: 0,
  byStatus: new Map<string, number>(),
  fiveXx: [] as string[],
  networkErrors: 0,
  accepted: 0,
  replays: 0,
};

export async function call(
  server: Server,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer | undefined> {
  stats.sent++;
  const label = path.replace(/\/[1-9A-HJ-NP-Za-km-z]{32,88}/g, '/{id}').replace(/\?.*$/, '');
  try {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    const key = `${method} ${label} ${res.status}`;
    stats.byStatus.set(key, (stats.byStatus.get(key) ?? 0) + 1);
    if (res.status >= 500) stats.fiveXx.push(`${method} ${path} -> ${res.status} ${text.slice(0, 200)}`);
    let json: Answer['json'] = {};
    try {
      json = JSON.parse(text) as Answer['json'];
    } catch {
      // not JSON: only the status counts
    }
    return { status: res.status, json, headers: res.headers };
  } catch (error) {
    stats.networkErrors++;
    const key = `${method} ${label} network-error`;
    stats.byStatus.set(key, (stats.byStatus.get(key) ?? 0) + 1);
    if (stats.networkErrors <= 5) log(`network error: ${method} ${path}: ${(error as Error).message}`);
    return undefined;
  }
}

/** Every accepted transaction: where it came from and what tracking last said. */
export interface Tracked {
  readonly kind: string;
  readonly server: number;
  status: string;
  notFound: number;
}
export const transactions = new Map<string, Tracked>();
export const duplicates: string[] = [];

function accept(id: unknown, kind: string, server: number, replay = false) {
  if (typeof id !== 'string') return;
  if (replay) {
    stats.replays++;
    if (!transactions.has(id)) duplicates.push(`replay returned an id never seen before: ${id}`);
    return;
  }
  stats.accepted++;
  if (transactions.has(id))
    duplicates.push(`${kind}: id ${id} already returned for ${transactions.get(id)!.kind}`);
  else transactions.set(id, { kind, server, status: 'pending', notFound: 0 });
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
let amountCounter = 0;
/** A fresh amount each time (base units), so no two transfers are the same transaction. */
const freshAmount = (decimals: number) => {
  amountCounter++;
  const units = String(1_000 + amountCounter).padStart(decimals + 1, '0');
  return `${units.slice(0, -decimals)}.${units.slice(-decimals)}`.replace(/\.?0+$/, '');
};

export async function oneRequest(servers: Server[], accounts: string[], merchants: string[]) {
  const s = Math.floor(Math.random() * servers.length);
  const server = servers[s]!;
  const r = Math.random();
  const account = pick(accounts);
  if (r < 0.35) {
    const currency = pick(['sol', 'usdc']);
    const body = {
      account,
      amount: freshAmount(currency === 'sol' ? 9 : 6),
      priority: pick(['Min', 'Low', 'Medium', 'High', 'VeryHigh']),
    };
    if (Math.random() < 0.3) {
      // With an Idempotency-Key, retried on another server: one transaction, the same answer.
      const key = `soak-${randomBytes(8).toString('hex')}`;
      const first = await call(server, 'POST', `/v1/api/donate/${currency}`, body, {
        'idempotency-key': key,
      });
      if (first?.status === 200) accept(first.json.transactionId, 'donation', s);
      const other = (s + 1) % servers.length;
      const again = await call(servers[other]!, 'POST', `/v1/api/donate/${currency}`, body, {
        'idempotency-key': key,
      });
      if (again?.status === 200) {
        if (again.json.transactionId !== first?.json.transactionId)
          duplicates.push(
            `idempotent retry gave ${again.json.transactionId} after ${first?.json.transactionId}`,
          );
        accept(again.json.transactionId, 'donation', other, true);
      }
    } else {
      const res = await call(server, 'POST', `/v1/api/donate/${currency}`, body);
      if (res?.status === 200) accept(res.json.transactionId, 'donation', s);
    }
  } else if (r < 0.6) {
    const ids = [...transactions.keys()];
    if (ids.length) await call(server, 'GET', `/v1/api/transaction/track/${pick(ids)}`);
  } else if (r < 0.7) {
    await call(server, 'GET', `/v1/api/accounts/${account}`);
  } else if (r < 0.8) {
    const details = { currency: 'SOL', amount: freshAmount(9), priority: 'Low' };
    const preview = await call(server, 'POST', '/v1/api/transaction/preview', {
      account,
      transactionType: 'donation',
      details,
    });
    if (preview?.status === 200 && Math.random() < 0.6) {
      const signBody = { account, transactionType: 'donation', details, preview: preview.json.preview };
      const signed = await call(server, 'POST', '/v1/api/transaction/sign', signBody);
      if (signed?.status === 200) accept(signed.json.transactionId, 'signed donation', s);
      if (signed?.status === 200 && Math.random() < 0.3) {
        // Signing the same preview again (on another server) returns the same transaction.
        const other = (s + 1) % servers.length;
        const again = await call(servers[other]!, 'POST', '/v1/api/transaction/sign', signBody);
        if (again?.status === 200) {
          if (again.json.transactionId !== signed.json.transactionId)
            duplicates.push(
              `second sign gave ${again.json.transactionId} after ${signed.json.transactionId}`,
            );
          accept(again.json.transactionId, 'signed donation', other, true);
        }
      }
    }
  } else if (r < 0.9) {
    const merchant = Math.random() < 0.5;
    const res = await call(server, 'POST', merchant ? '/v1/api/merchant/payment' : '/v1/api/charity/donate', {
      [merchant ? 'merchant' : 'charity']: pick(merchants),
      amount: freshAmount(6),
      currency: 'USDC',
      account,
      useEscrow: Math.random() < 0.3,
      priority: 'Low',
    });
    if (res?.status === 200)
      accept(res.json.transactionId, merchant ? 'merchant payment' : 'charity donation', s);
  } else {
    // Bad input: must be a 4xx, never a 5xx.
    const bad = pick<[string, string, unknown]>([
      ['POST', '/v1/api/donate/sol', { account, amount: '1e3', priority: 'Low' }],
      ['POST', '/v1/api/donate/sol', { account: 'not-a-key', amount: '1', priority: 'Low' }],
      ['POST', '/v1/api/donate/usdc', '{"account":'],
      ['GET', '/v1/api/transaction/track/not-a-signature', undefined],
      [
        'POST',
        '/v1/api/transaction/sign',
        { account, transactionType: 'donation', details: {}, preview: 'v1.x.y' },
      ],
    ]);
    await call(server, bad[0], bad[1], bad[2]);
  }
}

export const TERMINAL = new Set(['finalized', 'failed', 'expired']);

export async function trackAll(servers: Server[], limit = 200) {
  const open = [...transactions.entries()].filter(([, t]) => !TERMINAL.has(t.status)).slice(0, limit);
  await Promise.all(
    open.map(async ([id, t]) => {
      // Any server answers for any transaction: they share the store.
      const res = await call(
        servers[(t.server + 1) % servers.length]!,
        'GET',
        `/v1/api/transaction/track/${id}`,
      );
      if (res?.status === 200 && typeof res.json.status === 'string') t.status = res.json.status;
      else if (res?.status === 404) t.notFound++;
    }),
  );
}
