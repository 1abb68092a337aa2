/**
 * End-to-end walkthrough of interface A over HTTP. Run against a started service:
 *   pnpm walkthrough            (reads .data/dev-credentials.json)
 * or import `walkthrough` from a test. It throws on the first thing that is not as expected and
 * returns what it did. Balances are compared in base units (bigint) after everything is finalized.
 */

export interface WalkthroughOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly log?: (line: string) => void;
  /** How long to wait for each transaction to reach finalized. */
  readonly finalizeTimeoutMs?: number;
}

export interface WalkthroughResult {
  readonly transactions: Record<string, string>;
  readonly statuses: Record<string, string>;
  readonly balances: Record<string, Record<string, string>>;
  readonly nft: Record<string, unknown>;
}

type Json = Record<string, unknown>;

const DECIMALS: Record<string, number> = { SOL: 9, USDC: 6 };

function units(amount: string, decimals: number): bigint {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`walkthrough: ${message}`);
}

export async function walkthrough(options: WalkthroughOptions): Promise<WalkthroughResult> {
  const log = options.log ?? (() => {});
  const headers = { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' };
  let step = 0;

  async function call(method: 'GET' | 'POST', path: string, body?: Json, extra: Record<string, string> = {}) {
    const res = await fetch(`${options.baseUrl}${path}`, {
      method,
      headers: { ...headers, ...extra },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json()) as Json;
    return { status: res.status, json };
  }

  async function ok(method: 'GET' | 'POST', path: string, body?: Json, extra?: Record<string, string>) {
    const { status, json } = await call(method, path, body, extra);
    check(status === 200, `${method} ${path} answered ${status}: ${JSON.stringify(json)}`);
    step++;
    log(`${String(step).padStart(2)} ${method} ${path} -> ${(json.message as string) ?? 'ok'}`);
    return json;
  }

  // The project token's ticker comes from the service's own document, so the walkthrough works for any.
  const spec = (await (await fetch(`${options.baseUrl}/v1/openapi.json`)).json()) as {
    paths: Record<string, unknown>;
  };
  const donatePaths = Object.keys(spec.paths).filter((p) => p.startsWith('/v1/api/donate/'));
  const project = donatePaths
    .map((p) => p.split('/').pop()!.toUpperCase())
    .find((t) => t !== 'SOL' && t !== 'USDC');
  check(project !== undefined, 'no project-token donate route in the OpenAPI document');
  DECIMALS[project] = 9;

  const created = async () => (await ok('POST', '/v1/api/accounts', {})).publicKey as string;
  const sender = await created();
  const charity = await created();
  const escrowCharity = await created();
  const merchant = await created();
  const escrowMerchant = await created();

  const tx: Record<string, string> = {};
  await ok('POST', `/v1/api/accounts/${sender}/airdrop`, { currency: 'SOL', amount: '10' });
  await ok('POST', `/v1/api/accounts/${sender}/airdrop`, { currency: 'USDC', amount: '1000' });
  await ok('POST', `/v1/api/accounts/${sender}/airdrop`, { currency: project, amount: '1000' });

  const donations: Array<[string, string, string]> = [
    ['SOL', '0.5', 'Low'],
    ['SOL', '0.25', 'VeryHigh'],
    ['USDC', '10', 'Min'],
    ['USDC', '5.5', 'High'],
    [project, '100', 'Medium'],
    [project, '50', 'VeryHigh'],
  ];
  for (const [currency, amount, priority] of donations) {
    const out = await ok('POST', `/v1/api/donate/${currency.toLowerCase()}`, {
      account: sender,
      amount,
      priority,
    });
    tx[`donate ${amount} ${currency} ${priority}`] = out.transactionId as string;
  }

  tx['charity direct'] = (
    await ok('POST', '/v1/api/charity/donate', { charity, amount: '20', currency: 'USDC', account: sender })
  ).transactionId as string;
  const charityEscrow = await ok('POST', '/v1/api/charity/donate', {
    charity: escrowCharity,
    amount: '1',
    currency: 'SOL',
    useEscrow: true,
    account: sender,
  });
  tx['charity escrow'] = charityEscrow.transactionId as string;
  tx['merchant direct'] = (
    await ok('POST', '/v1/api/merchant/payment', {
      merchant,
      amount: '30',
      currency: project,
      account: sender,
    })
  ).transactionId as string;
  const merchantEscrow = await ok('POST', '/v1/api/merchant/payment', {
    merchant: escrowMerchant,
    amount: '15',
    currency: 'USDC',
    useEscrow: true,
    account: sender,
  });
  tx['merchant escrow'] = merchantEscrow.transactionId as string;
  check(
    typeof charityEscrow.escrowId === 'string' && typeof merchantEscrow.escrowId === 'string',
    'escrowed payments return escrowId',
  );

  const minted = await ok('POST', '/v1/api/mint', {
    name: 'Walkthrough #1',
    symbol: 'WALK',
    uri: 'https://example.org/walk/1.json',
    owner: sender,
  });
  tx.mint = minted.transactionId as string;

  const details = { currency: 'USDC', amount: '7', priority: 'High' };
  const previewed = await ok('POST', '/v1/api/transaction/preview', {
    account: sender,
    transactionType: 'donation',
    details,
  });
  const signBody = { account: sender, transactionType: 'donation', details, preview: previewed.preview };
  const signedOnce = await ok('POST', '/v1/api/transaction/sign', signBody);
  const signedTwice = await ok('POST', '/v1/api/transaction/sign', signBody);
  check(
    signedOnce.transactionId === signedTwice.transactionId,
    'signing one preview twice gives one transaction id',
  );
  tx['preview+sign'] = signedOnce.transactionId as string;

  async function finalized(id: string) {
    const deadline = Date.now() + (options.finalizeTimeoutMs ?? 60_000);
    for (;;) {
      const { json } = await call('GET', `/v1/api/transaction/track/${id}`);
      if (json.status === 'finalized') return json;
      check(
        json.status !== 'failed' && json.status !== 'expired',
        `transaction ${id} ended ${json.status}: ${json.error ?? ''}`,
      );
      check(Date.now() < deadline, `transaction ${id} still ${json.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  // Escrows settle only once their funding is confirmed.
  await finalized(tx['charity escrow']!);
  await finalized(tx['merchant escrow']!);
  const released = await ok('POST', `/v1/api/escrows/${charityEscrow.escrowId}/release`);
  const refunded = await ok('POST', `/v1/api/escrows/${merchantEscrow.escrowId}/refund`);
  check(released.status === 'released' && refunded.status === 'refunded', 'escrows settled');
  tx['escrow release'] = released.transactionId as string;
  tx['escrow refund'] = refunded.transactionId as string;
  const again = await call('POST', `/v1/api/escrows/${charityEscrow.escrowId}/release`);
  check(again.status === 409, `a second release is refused (got ${again.status})`);

  const statuses: Record<string, string> = {};
  for (const [name, id] of Object.entries(tx)) {
    const tracked = await finalized(id);
    statuses[name] = tracked.status as string;
    check(String(tracked.explorerUrl).startsWith('https://explorer.solana.com/tx/'), 'explorer link');
  }
  log(`   ${Object.keys(statuses).length} transactions finalized`);

  const nft = await ok('GET', `/v1/api/nfts/${minted.mint}`);
  check(
    nft.name === 'Walkthrough #1' && nft.symbol === 'WALK' && nft.uri === 'https://example.org/walk/1.json',
    `NFT metadata on chain: ${JSON.stringify(nft)}`,
  );
  check(
    nft.supply === '1' && nft.decimals === 0 && nft.mintAuthority === null,
    'NFT supply 1, decimals 0, no mint authority',
  );

  const expected: Record<string, Record<string, string>> = {
    sender: { SOL: '8.25', USDC: '957.5', [project]: '820' },
    charity: { SOL: '0', USDC: '20', [project]: '0' },
    escrowCharity: { SOL: '1', USDC: '0', [project]: '0' },
    merchant: { SOL: '0', USDC: '0', [project]: '30' },
    escrowMerchant: { SOL: '0', USDC: '0', [project]: '0' },
  };
  const who: Record<string, string> = { sender, charity, escrowCharity, merchant, escrowMerchant };
  const balances: Record<string, Record<string, string>> = {};
  for (const [name, key] of Object.entries(who)) {
    const account = await ok('GET', `/v1/api/accounts/${key}`);
    balances[name] = {};
    for (const b of account.balances as Array<{ currency: string; baseUnits: string }>) {
      balances[name]![b.currency] = b.baseUnits;
      const want = units(expected[name]![b.currency]!, DECIMALS[b.currency]!);
      check(
        BigInt(b.baseUnits) === want,
        `${name} holds ${b.baseUnits} base units of ${b.currency}, expected ${want}`,
      );
    }
  }
  log('   every balance equals the expected amount to the base unit');
  return { transactions: tx, statuses, balances, nft };
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const { existsSync, readFileSync } = await import('node:fs');
  const file = process.env.DEV_CREDENTIALS ?? `${process.env.DATA_DIR ?? '.data'}/dev-credentials.json`;
  if (!existsSync(file)) {
    console.error(
      `walkthrough: no ${file}. Start the service first (npx -y pnpm@10 start), and give the walkthrough ` +
        'the DATA_DIR the service runs with (or DEV_CREDENTIALS=<path to its dev-credentials.json>).',
    );
    process.exit(1);
  }
  const creds = JSON.parse(readFileSync(file, 'utf8')) as { baseUrl: string; apiKey: string };
  const result = await walkthrough({ baseUrl: creds.baseUrl, apiKey: creds.apiKey, log: console.log });
  console.log(JSON.stringify(result.balances, null, 2));
}
