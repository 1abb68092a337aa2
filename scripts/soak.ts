/**
 * Soak: bounded mixed traffic against interface A on one or more servers, loopback only. Not part
 * of CI. It reports 5xx answers, lost and duplicated transactions (every accepted donation, payment
 * and signature is tracked until it is finalized, failed or expired; ids must be unique), and the
 * servers' memory over time.
 *
 *   # drive servers that are already running (their RSS is read when their pids are given)
 *   tsx scripts/soak.ts --urls http://127.0.0.1:8787,http://127.0.0.1:8788 --api-key ta_... [--pids 123,456]
 *
 *   # start the at-scale topology itself: a localnet process (JSON-RPC), two servers and one
 *   # standalone worker on PostgreSQL and Redis (use a scratch database: the soak writes to it)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/soak REDIS_URL=redis://127.0.0.1:6379 \
 *     tsx scripts/soak.ts --spawn 2
 *
 *   # or one server on the embedded default (LiteSVM + PGlite), for a quick local look
 *   tsx scripts/soak.ts --spawn 1 --embedded --duration 1m
 *
 * Options: --duration 5m (default; also 90s, 300), --rate 40 (requests per second, all servers),
 * --settle 90s (how long to wait for the last transactions to reach a terminal status).
 * Environment: SOAK_URLS, SOAK_API_KEY, SOAK_DURATION, SOAK_RATE stand in for the flags.
 * Exits 1 when any 5xx, lost or duplicated transaction was seen.
 */
import { randomBytes } from 'node:crypto';
import { DURATION_MS, log, RATE, SETTLE_MS } from './soak/cli.js';
import { type RssSample, report, rssOf } from './soak/report.js';
import { cleanup, resolveServers } from './soak/topology.js';
import { call, oneRequest, stats, TERMINAL, trackAll, transactions } from './soak/traffic.js';

async function main() {
  const { servers, workerPids } = await resolveServers();
  log(
    `soak: ${servers.length} server(s) ${servers.map((s) => s.baseUrl).join(', ')}; ${RATE} req/s for ${DURATION_MS / 1000}s`,
  );

  // Funded managed accounts and some beneficiaries.
  const accounts: string[] = [];
  for (let i = 0; i < 8; i++) {
    const s = servers[i % servers.length]!;
    const created = await call(s, 'POST', '/v1/api/accounts', {});
    const pk = created?.json.publicKey as string | undefined;
    if (!pk) throw new Error(`could not create an account: ${JSON.stringify(created?.json)}`);
    for (const [currency, amount] of [
      ['SOL', '500'],
      ['USDC', '100000'],
    ]) {
      const a = await call(s, 'POST', `/v1/api/accounts/${pk}/airdrop`, { currency, amount });
      if (a?.status !== 200) throw new Error(`airdrop failed (${a?.status}): ${JSON.stringify(a?.json)}`);
    }
    accounts.push(pk);
  }
  const merchants = Array.from({ length: 4 }, () => {
    // Fresh beneficiaries: base58 of 32 random bytes.
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    let n = BigInt(`0x${randomBytes(32).toString('hex')}`);
    let out = '';
    while (n > 0n) {
      out = alphabet[Number(n % 58n)] + out;
      n /= 58n;
    }
    return out;
  });

  const pids = [...servers.map((s) => s.pid).filter((p): p is number => p !== undefined), ...workerPids];
  const rss: RssSample[] = [];
  const started = Date.now();
  const sampler = setInterval(async () => {
    const mib = await Promise.all(pids.map(async (p) => Math.round((await rssOf(p)) ?? -1)));
    rss.push({ atSec: Math.round((Date.now() - started) / 1000), mib });
  }, 5_000);
  const reporter = setInterval(() => {
    const open = [...transactions.values()].filter((t) => !TERMINAL.has(t.status)).length;
    log(
      `${Math.round((Date.now() - started) / 1000)}s: ${stats.sent} requests, ${stats.fiveXx.length} 5xx, ${stats.accepted} accepted, ${open} not yet terminal, rss ${rss.at(-1)?.mib.join('/') ?? '?'} MiB`,
    );
  }, 30_000);

  // Open loop at RATE: a request leaves every 1/RATE s whatever the previous ones are doing.
  const inflight = new Set<Promise<void>>();
  // Tracking polls on its own clock, so it stays a small share of the traffic.
  let tracking: Promise<void> | undefined;
  const tracker = setInterval(() => {
    tracking ??= trackAll(servers, 40).finally(() => {
      tracking = undefined;
    });
  }, 2_000);
  let next = Date.now();
  while (Date.now() - started < DURATION_MS) {
    const p = oneRequest(servers, accounts, merchants).catch((e: unknown) => {
      log(`request failed: ${(e as Error).message}`);
    });
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
    next += 1000 / RATE;
    const wait = next - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  await Promise.all(inflight);
  clearInterval(tracker);
  await tracking;

  // Let the last transactions settle.
  log(`traffic done; waiting up to ${SETTLE_MS / 1000}s for every transaction to reach a terminal status`);
  const settleUntil = Date.now() + SETTLE_MS;
  while (Date.now() < settleUntil && [...transactions.values()].some((t) => !TERMINAL.has(t.status))) {
    await trackAll(servers, 500);
    await new Promise((r) => setTimeout(r, 1_000));
  }
  clearInterval(sampler);
  clearInterval(reporter);

  return report(pids, rss);
}

process.on('SIGINT', () => {
  void cleanup().then(() => process.exit(130));
});

main()
  .then(async (code) => {
    await cleanup();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    console.error((error as Error).message);
    await cleanup();
    process.exit(2);
  });
